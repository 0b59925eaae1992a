package dev.layerfold.restore;

import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import java.io.IOException;
import java.util.Random;

/** The same restores of a klauspost zstd layer at SpeedFastest (containers/image's zstd levels 1-2): one match table, 64 KiB blocks, a 4 MiB window. */
class KlauspostZstdFastestParallelRestoreTest extends KlauspostZstdParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.klauspostZstdLayer(random, megabytes, KlauspostSettings.SPEED_FASTEST);
    }
}
