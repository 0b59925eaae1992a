package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/** The same restores of a GNU gzip -6 layer: points inside bytes with state values, blocks of up to 32767 symbols. */
class GnuGzipParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.gnuGzipLayer(random, megabytes);
    }
}
