package dev.layerfold.dedup.codec.deflate.zlib;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A 100 MB layer-like input at level 9 (Python tools' default), streamed through both encoders. */
class ZlibLargeInputTest {

    private static final long SIZE = 100L * 1024 * 1024;
    private static final String STREAMING_ZLIB = """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
            while True:
                chunk = sys.stdin.buffer.read(1 << 20)
                if not chunk:
                    break
                sys.stdout.buffer.write(c.compress(chunk))
            sys.stdout.buffer.write(c.flush())
            """;

    @Test
    void hundredMegabytesAtLevelNineEqualSystemZlib() throws Exception {
        Path python = ReferenceTools.require("python3", "zlib-compatible DEFLATE of 100 MB");
        Process zlib = new ProcessBuilder(python.toString(), "-c", STREAMING_ZLIB)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            CompletableFuture<Void> feeding = CompletableFuture.runAsync(() -> {
                try (OutputStream in = zlib.getOutputStream()) {
                    ReferenceInputs.layerLike(100, SIZE, (chunk, length) -> in.write(chunk, 0, length));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            StreamComparison comparison = new StreamComparison(zlib.getInputStream(), "level 9, 100 MB");
            ZlibEncoder encoder = ZlibEncoder.create(comparison, 9);
            ReferenceInputs.layerLike(100, SIZE, (chunk, length) -> encoder.write(chunk, 0, length));
            encoder.finish();
            comparison.assertReferenceEnded();
            feeding.get(1, TimeUnit.MINUTES);
            assertEquals(0, zlib.waitFor(), "python zlib exit status");
        } finally {
            zlib.destroy();
        }
    }
}
