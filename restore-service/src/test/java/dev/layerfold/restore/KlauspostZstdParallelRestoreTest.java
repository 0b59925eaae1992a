package dev.layerfold.restore;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a layer written by klauspost/compress/zstd's Writer at its default level
 * (podman's, containerd's, BuildKit's): its frame's points carry the match-table slots their
 * segments read otherwise than a warm-up leaves them; the frame's checksum is computed as it goes.
 */
class KlauspostZstdParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.klauspostZstdLayer(random, megabytes, KlauspostSettings.SPEED_DEFAULT);
    }

    @Override
    int recordedRestartPoints() throws IOException {
        return ((ZstdFrame.Compressed) recordedRecipe().frames().getFirst()).restartPoints().size();
    }
}
