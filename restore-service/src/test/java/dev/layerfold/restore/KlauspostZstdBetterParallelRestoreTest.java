package dev.layerfold.restore;

import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a klauspost zstd layer at SpeedBetterCompression (containers/image's zstd levels 5-9): its
 * points' patches carry buckets of two positions. Its points lie 8 MiB apart, so the layer is larger by half, for as many.
 */
class KlauspostZstdBetterParallelRestoreTest extends KlauspostZstdParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.klauspostZstdLayer(random, megabytes * 3 / 2, KlauspostSettings.SPEED_BETTER);
    }
}
