package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a zlib -6 layer (the JDK's own zlib): its points lie inside bytes, carry
 * state values, and each segment's encoder reads up to its 64 KiB window past its end.
 */
class ZlibParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.zlibLayer(random, megabytes);
    }
}
