package dev.layerfold.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The same restores of a Go 1.27 -9 layer (eStargz's level, and some tools'): its points lie
 * inside bytes and carry eight state values, and a resume encodes the blocks since the open
 * table was headed again, so it reads up to 1 MiB more history than the window.
 */
class Go127LazyParallelRestoreTest extends ParallelRestoreTest {

    @Override
    byte[] layerOf(Random random, int megabytes) throws IOException {
        return DeduplicatedLayers.go127Level9Layer(random, megabytes);
    }

    /** pgzip's level 9 writes nearly the same bytes: the points above are Go 1.27's own. */
    @Test
    void thePipelineTookTheLayerForGo127sLevel9() throws IOException {
        assertThat(recordedMember().encoder().label()).isEqualTo("go127-9");
    }
}
