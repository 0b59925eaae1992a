package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeapSharesTest {

    private static final long MIB = 1 << 20;

    @Test
    void theDefaultsFitAnyHeap() {
        long heap = 256 * MIB;
        assertThatCode(() -> HeapShares.check(heap, heap / 4, heap * 3 / 8, heap / 8)).doesNotThrowAnyException();
    }

    @Test
    void budgetsThatTakeMoreThanThreeQuartersOfTheHeapStopTheStartNamingEachProperty() {
        assertThatThrownBy(() -> HeapShares.check(256 * MIB, 64 * MIB, 128 * MIB, 32 * MIB))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("layerfold.api.request-memory 64 MiB")
                .hasMessageContaining("layerfold.dedup.restore-memory 128 MiB")
                .hasMessageContaining("layerfold.predictor.memory-size 32 MiB")
                .hasMessageContaining("256 MiB heap");
    }
}
