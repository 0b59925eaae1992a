package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a Go -6 layer (docker's, buildkit's): its points lie inside bytes, carry
 * state values, and each segment's encoder looks ahead past its end.
 */
class GoParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.goLayer(random, megabytes);
    }
}
