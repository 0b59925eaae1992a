package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The same restores of a Go 1.27 level -2 (HuffmanOnly) layer of system files: its points lie at 32 KiB
 * window boundaries inside bytes, carry the open Huffman table's age, and each resume replays the
 * windows since that table was opened, on the restore pool's threads.
 */
class Go127HuffmanOnlyParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.go127HuffmanOnlyLayer(random, megabytes);
    }

    @Test
    void thePipelineTookTheLayerForGo127sLevel() throws IOException {
        assertThat(recordedMember().encoder()).isEqualTo(EncoderSpec.of(StandardEncoders.GO127, -2));
    }
}
