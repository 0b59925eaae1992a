package dev.layerfold.restore;

import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a klauspost zstd layer at SpeedBestCompression (containers/image's zstd levels 10 and up): its
 * points' segments start from match tables replayed from the Writer's indexing of the window before them. Its points lie
 * 8 MiB apart, so the layer is larger by half, for as many.
 */
class KlauspostZstdBestParallelRestoreTest extends KlauspostZstdParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.klauspostZstdLayer(random, megabytes * 3 / 2, KlauspostSettings.SPEED_BEST);
    }
}
