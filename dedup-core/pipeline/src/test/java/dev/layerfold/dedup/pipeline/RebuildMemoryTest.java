package dev.layerfold.dedup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.ContentBusyException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RebuildMemoryTest {

    private static final long MIB = 1 << 20;
    private static final Digest LAYER = Digest.sha256(new byte[] {1});

    @Test
    void rebuildsOverTheBudgetStartInArrivalOrderAsMemoryIsGivenBack() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RebuildMemory memory = new RebuildMemory(4 * MIB, Duration.ofMinutes(1), metrics);
        RebuildMemory.Reservation first = memory.reserve(3 * MIB, LAYER);
        List<Integer> started = new ArrayList<>();
        List<CompletableFuture<RebuildMemory.Reservation>> waiting = new ArrayList<>();
        try (ExecutorService threads = Executors.newCachedThreadPool()) {
            for (int i = 0; i < 3; i++) {
                int order = i;
                waiting.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        RebuildMemory.Reservation reserved = memory.reserve(2 * MIB, LAYER);
                        synchronized (started) {
                            started.add(order);
                        }
                        return reserved;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, threads));
                awaitWaiting(memory, i + 1);
            }
            assertThat(metrics.get("layerfold.restore.queued").gauge().value()).isEqualTo(3);
            first.close();
            // 4 MiB free: the first two in line start; the third waits for one of them.
            waiting.get(0).get(10, TimeUnit.SECONDS);
            waiting.get(1).get(10, TimeUnit.SECONDS);
            assertThat(waiting.get(2)).isNotDone();
            waiting.get(0).join().close();
            waiting.get(2).get(10, TimeUnit.SECONDS).close();
            waiting.get(1).join().close();
        }
        // The first two are let in together, so either may record its start first; the third only after both.
        assertThat(started).hasSize(3).endsWith(2);
        assertThat(started.subList(0, 2)).containsExactlyInAnyOrder(0, 1);
        assertThat(memory.available()).isEqualTo(memory.capacity());
    }

    @Test
    void aReservationLargerThanTheBudgetIsCutToItAndRunsAlone() throws Exception {
        RebuildMemory memory = RebuildMemory.of(8 * MIB);
        try (RebuildMemory.Reservation huge = memory.reserve(1L << 40, LAYER)) {
            assertThat(huge.bytes()).isEqualTo(8 * MIB);
            assertThat(memory.available()).isZero();
        }
        assertThat(memory.available()).isEqualTo(8 * MIB);
    }

    @Test
    void aRebuildStillWaitingAfterTheLongestWaitIsRefusedAsBusy() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RebuildMemory memory = new RebuildMemory(2 * MIB, Duration.ofMillis(100), metrics);
        try (RebuildMemory.Reservation held = memory.reserve(2 * MIB, LAYER)) {
            assertThatThrownBy(() -> memory.reserve(MIB, LAYER)).isInstanceOf(ContentBusyException.class)
                    .satisfies(e -> assertThat(((ContentBusyException) e).retryAfter()).isPositive());
        }
        assertThat(metrics.counter("layerfold.restore.refused").count()).isEqualTo(1);
        assertThat(memory.waiting()).isZero();
    }

    @Test
    void closingAReservationTwiceGivesItBackOnce() throws Exception {
        RebuildMemory memory = RebuildMemory.of(4 * MIB);
        RebuildMemory.Reservation reserved = memory.reserve(MIB, LAYER);
        reserved.close();
        reserved.close();
        assertThat(memory.available()).isEqualTo(4 * MIB);
    }

    private static void awaitWaiting(RebuildMemory memory, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (memory.waiting() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(count + " rebuilds did not wait within 10 s");
            }
            Thread.sleep(5);
        }
    }
}
