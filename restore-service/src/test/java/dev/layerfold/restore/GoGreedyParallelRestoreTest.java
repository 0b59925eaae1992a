package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a Go level 2 layer of system files: its chains are rebuilt by a warm-up over
 * 256 KiB before each point, and the points lie where the proof saw that warm-up hold.
 */
class GoGreedyParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.goLevel2Layer(random, megabytes);
    }
}
