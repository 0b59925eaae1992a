package dev.layerfold.restore;

import java.io.IOException;
import java.util.Random;

/**
 * The same restores of an eStargz-like layer (a gzip member of Go's level 6 per 64 KiB of tar): its
 * units of whole members, each with the digest of its bytes, stand for restart points.
 */
class IndependentUnitsRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.multiMemberGoLayer(random, megabytes);
    }

    @Override
    int recordedRestartPoints() throws IOException {
        return recordedRecipe().units().size();
    }
}
