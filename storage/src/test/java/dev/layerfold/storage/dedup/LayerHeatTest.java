package dev.layerfold.storage.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LayerHeatTest {

    private static final long HALF_LIFE = LayerPulls.HALF_LIFE.toMillis();

    @Test
    void countsHalveEveryHalfLife() {
        LayerHeat heat = new LayerHeat(8, 0, 0);

        assertThat(heat.pullsAt(HALF_LIFE)).isCloseTo(4.0, within(1e-9));
        assertThat(heat.pullsAt(3 * HALF_LIFE)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aPullAddsToTheDecayedCountAndMovesTheLastPull() {
        LayerHeat heat = new LayerHeat(8, 0, 0).plus(1, HALF_LIFE);

        assertThat(heat.pulls()).isCloseTo(5.0, within(1e-9));
        assertThat(heat.lastPullMillis()).isEqualTo(HALF_LIFE);
    }
}
