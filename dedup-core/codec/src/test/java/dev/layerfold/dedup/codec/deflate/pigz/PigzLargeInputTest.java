package dev.layerfold.dedup.codec.deflate.pigz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceInputs;
import dev.layerfold.dedup.codec.deflate.zlib.StreamComparison;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** 100 MB through pigz -9 (Debian base images' setting) and the port, compared as they stream. */
class PigzLargeInputTest {

    private static final long SIZE = 100L * 1024 * 1024;

    @Test
    void hundredMegabytesMatchPigzBest() throws Exception {
        PigzSettings settings = PigzSettings.of(9);
        Process pigz = Pigz.start(settings);
        try {
            CompletableFuture<Void> feeding = CompletableFuture.runAsync(() -> {
                try (OutputStream in = pigz.getOutputStream()) {
                    ReferenceInputs.layerLike(200, SIZE, (chunk, length) -> in.write(chunk, 0, length));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            StreamComparison comparison = new StreamComparison(new GzipMember(pigz.getInputStream()), "pigz -9, 100 MB");
            PigzEncoder encoder = PigzEncoder.create(comparison, settings);
            ReferenceInputs.layerLike(200, SIZE, (chunk, length) -> encoder.write(chunk, 0, length));
            encoder.finish();
            comparison.assertReferenceEnded();
            feeding.get(1, TimeUnit.MINUTES);
            assertEquals(0, pigz.waitFor(), "pigz exit status");
        } finally {
            pigz.destroy();
        }
    }
}
