package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of a Go 1.27 -6 layer (docker's and buildkit's built with Go 1.27): its points
 * lie inside bytes, carry the open table's age, and each segment's state is rebuilt by a warm-up
 * over up to 9 blocks before it, so a resume reads far more than 32 KiB of history.
 */
class Go127ParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.go127Layer(random, megabytes);
    }
}
