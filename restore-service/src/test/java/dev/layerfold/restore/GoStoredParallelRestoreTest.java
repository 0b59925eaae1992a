package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The same restores of a Go level 0 (NoCompression: stored blocks, byte aligned) layer of system files: its points lie at
 * 65535-byte block boundaries, carry no state values and need no input before them.
 */
class GoStoredParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.goStoreLayer(random, megabytes, 0);
    }

    @Test
    void thePipelineTookTheLayerForGosLevel() throws IOException {
        assertThat(recordedMember().encoder()).isEqualTo(EncoderSpec.of(StandardEncoders.GO, 0));
    }
}
