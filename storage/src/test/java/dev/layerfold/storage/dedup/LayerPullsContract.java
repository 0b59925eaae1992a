package dev.layerfold.storage.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.layerfold.storage.Digest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link LayerPulls} must do; run against each implementation. */
public abstract class LayerPullsContract {

    /** A fresh, empty store. */
    protected abstract LayerPulls newPulls() throws Exception;

    /** Another handle on the store {@link #newPulls()} made last, as another process would see it. */
    protected abstract LayerPulls samePulls() throws Exception;

    private static Digest digest(String name) {
        return Digest.sha256(name.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void pullsRecordedInBatchesAddUpAndSayWhenTheLayerWasLastPulled() throws Exception {
        LayerPulls pulls = newPulls();
        long before = pulls.nowMillis();
        pulls.record(Map.of(digest("a"), 3L, digest("b"), 1L));
        samePulls().record(Map.of(digest("a"), 2L));
        long after = pulls.nowMillis();

        LayerHeat a = samePulls().heat(digest("a")).orElseThrow();
        assertThat(a.pullsAt(a.atMillis())).isCloseTo(5.0, within(0.01));
        assertThat(a.lastPullMillis()).isBetween(before, after);
        assertThat(pulls.heat(digest("never pulled"))).isEmpty();
        assertThat(pulls.all()).containsOnlyKeys(digest("a"), digest("b"));
    }

    @Test
    void concurrentBatchesFromManyProcessesLoseNoPull() throws Exception {
        newPulls();
        ExecutorService processes = Executors.newFixedThreadPool(4);
        try {
            List<Future<Void>> batches = new ArrayList<>();
            for (int process = 0; process < 4; process++) {
                LayerPulls own = samePulls();
                Callable<Void> batchesOfOneProcess = () -> {
                    for (int i = 0; i < 25; i++) {
                        own.record(Map.of(digest("hot"), 1L));
                    }
                    return null;
                };
                batches.add(processes.submit(batchesOfOneProcess));
            }
            for (Future<Void> batch : batches) {
                batch.get();
            }
        } finally {
            processes.shutdownNow();
        }

        LayerHeat hot = samePulls().heat(digest("hot")).orElseThrow();
        assertThat(hot.pullsAt(hot.atMillis())).isCloseTo(100.0, within(0.1));
    }

    @Test
    void forgettingKeepsLayersPulledSinceTheCutoff() throws Exception {
        LayerPulls pulls = newPulls();
        pulls.record(Map.of(digest("old"), 1L, digest("recent"), 1L));
        long cutoff = pulls.nowMillis() + 1;

        pulls.forget(List.of(digest("old")), cutoff);
        pulls.forget(List.of(digest("recent")), 0);

        assertThat(samePulls().all()).containsOnlyKeys(digest("recent"));
    }
}
