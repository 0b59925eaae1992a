package dev.layerfold.restore;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a layer written by libzstd with a worker thread (the zstd CLI's default) at level 1, in jobs of 2 MiB: its
 * frame's points lie at job boundaries and carry nothing but offsets and a digest; the frame's checksum is computed as it goes.
 */
class LibzstdParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.libzstdLayer(random, megabytes, 1);
    }

    @Override
    int recordedRestartPoints() throws IOException {
        return ((ZstdFrame.Compressed) recordedRecipe().frames().getFirst()).restartPoints().size();
    }
}
