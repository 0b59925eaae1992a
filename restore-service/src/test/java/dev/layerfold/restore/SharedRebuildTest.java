package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedRebuildTest {

    @TempDir
    Path spool;

    private final byte[] layer = new Random(7).ints(300_000, 0, 256).collect(ByteArrayOutputStream::new,
            (out, b) -> out.write(b), (a, b) -> a.write(b.toByteArray(), 0, b.size())).toByteArray();

    @Test
    void everyReaderOfOneRebuildGetsTheWholeLayerOrItsRange() throws Exception {
        SharedRebuild rebuild = new SharedRebuild(spool);
        InputStream whole = rebuild.reader(0, -1, layer.length);
        InputStream range = rebuild.reader(1000, 5000, layer.length);

        try (OutputStream out = rebuild.output()) {
            out.write(layer);
        }
        rebuild.succeed();

        assertThat(whole.readAllBytes()).isEqualTo(layer);
        assertThat(range.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, 1000, 6000));
        whole.close();
        range.close();
        try (var left = Files.list(spool)) {
            assertThat(left).as("the spool file goes with the last reader").isEmpty();
        }
    }

    @Test
    void aFailedRebuildNeverDeliversTheLastByteOfARange() throws Exception {
        SharedRebuild rebuild = new SharedRebuild(spool);
        InputStream whole = rebuild.reader(0, -1, layer.length);
        InputStream head = rebuild.reader(0, 100, layer.length);
        try (OutputStream out = rebuild.output()) {
            out.write(layer);
        }

        rebuild.fail(new IOException("digest mismatch"));

        assertThatThrownBy(whole::readAllBytes).hasMessageContaining("digest mismatch");
        assertThatThrownBy(head::readAllBytes).hasMessageContaining("digest mismatch");
    }

    @Test
    void bytesReachAReaderBeforeTheRebuildEnds() throws Exception {
        SharedRebuild rebuild = new SharedRebuild(spool);
        InputStream whole = rebuild.reader(0, -1, layer.length);
        OutputStream out = rebuild.output();

        out.write(layer, 0, 1000);

        assertThat(whole.readNBytes(1000)).isEqualTo(Arrays.copyOf(layer, 1000));
        out.write(layer, 1000, layer.length - 1000);
        rebuild.succeed();
        assertThat(whole.readAllBytes()).isEqualTo(Arrays.copyOfRange(layer, 1000, layer.length));
    }

    @Test
    void theEncoderStopsWhenEveryReaderIsGoneAndANewRequestStartsAnotherRebuild() throws Exception {
        SharedRebuild rebuild = new SharedRebuild(spool);
        rebuild.reader(0, -1, layer.length).close();

        assertThatThrownBy(() -> rebuild.output().write(layer)).hasMessageContaining("went away");
        assertThat(rebuild.reader(0, -1, layer.length)).isNull();
    }
}
