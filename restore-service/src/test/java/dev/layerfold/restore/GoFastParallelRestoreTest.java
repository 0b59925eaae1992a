package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a Go level 1 layer (crane's, ko's, kaniko's): its points carry no state
 * values, and each segment's match finder is rebuilt by a warm-up over the two blocks before it.
 */
class GoFastParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.goLevel1Layer(random, megabytes);
    }
}
