package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/** The same restores of a zstd:chunked-like layer: a klauspost frame per 64 KiB of tar, the encoder reset between frames. */
class ZstdChunkedRestoreTest extends IndependentUnitsRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.multiFrameZstdLayer(random, megabytes);
    }
}
