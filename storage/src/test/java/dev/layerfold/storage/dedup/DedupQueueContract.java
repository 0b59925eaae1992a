package dev.layerfold.storage.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link DedupQueue} contract. An implementation's test extends this class and supplies a fresh
 * queue per call of {@link #newQueue()} and a second handle on the same queue from {@link #sameQueue()}
 * (another process's view).
 */
public abstract class DedupQueueContract {

    private static final Duration LONG_LEASE = Duration.ofMinutes(10);

    /** A new, empty queue. */
    protected abstract DedupQueue newQueue() throws Exception;

    /** Another handle on the queue last returned by {@link #newQueue()}, as a second process has. */
    protected abstract DedupQueue sameQueue() throws Exception;

    protected static LayerTask task(String name) {
        return new LayerTask(Digest.sha256(name.getBytes(StandardCharsets.UTF_8)), "application/vnd.oci.image.layer.v1.tar+gzip", 42);
    }

    @Test
    void tasksComeOutInTheOrderTheyWentIn() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        queue.enqueue(task("b"));

        TakenTask first = queue.take("w1", LONG_LEASE).orElseThrow();
        TakenTask second = queue.take("w1", LONG_LEASE).orElseThrow();

        assertThat(first.task()).isEqualTo(task("a"));
        assertThat(second.task()).isEqualTo(task("b"));
        assertThat(first.deliveries()).isEqualTo(1);
        assertThat(queue.take("w1", LONG_LEASE)).isEmpty();
    }

    @Test
    void aLayerAlreadyWaitingIsQueuedOnce() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        queue.enqueue(task("a"));

        assertThat(queue.backlog()).isEqualTo(1);
        queue.take("w1", LONG_LEASE).orElseThrow();
        assertThat(queue.take("w1", LONG_LEASE)).isEmpty();
    }

    @Test
    void aCompletedTaskIsGoneAndItsLayerCanBeQueuedAgain() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        TakenTask taken = queue.take("w1", LONG_LEASE).orElseThrow();

        queue.complete(taken);
        queue.complete(taken);

        assertThat(queue.backlog()).isZero();
        queue.enqueue(task("a"));
        assertThat(queue.take("w1", LONG_LEASE).map(TakenTask::task)).contains(task("a"));
    }

    @Test
    void aTaskBeingWorkedOnCountsInTheBacklogAndIsNotHandedOutTwice() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        queue.take("w1", LONG_LEASE).orElseThrow();

        assertThat(queue.backlog()).isEqualTo(1);
        assertThat(sameQueue().take("w2", LONG_LEASE)).isEmpty();
    }

    @Test
    void aTaskWhoseLeaseRanOutGoesToAnotherWorker() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        TakenTask lost = queue.take("w1", Duration.ofMillis(1)).orElseThrow();
        waitPast(Duration.ofMillis(1));

        TakenTask again = sameQueue().take("w2", LONG_LEASE).orElseThrow();

        assertThat(again.task()).isEqualTo(task("a"));
        assertThat(again.deliveries()).isEqualTo(2);
        assertThat(queue.renew(lost, "w1", LONG_LEASE)).as("the first worker lost it").isFalse();
        assertThat(queue.renew(again, "w2", LONG_LEASE)).isTrue();
    }

    @Test
    void aRenewedTaskStaysWithItsWorker() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));
        TakenTask taken = queue.take("w1", Duration.ofSeconds(30)).orElseThrow();

        assertThat(queue.renew(taken, "w1", LONG_LEASE)).isTrue();

        assertThat(sameQueue().take("w2", LONG_LEASE)).isEmpty();
    }

    @Test
    void tasksSurviveReopening() throws Exception {
        DedupQueue queue = newQueue();
        queue.enqueue(task("a"));

        assertThat(sameQueue().take("w2", LONG_LEASE).map(TakenTask::task)).contains(task("a"));
    }

    @Test
    void concurrentWorkersNeverTakeTheSameTask() throws Exception {
        DedupQueue queue = newQueue();
        int tasks = 60;
        for (int i = 0; i < tasks; i++) {
            queue.enqueue(task("t" + i));
        }
        DedupQueue other = sameQueue();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<LayerTask>>> takers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                DedupQueue handle = w % 2 == 0 ? queue : other;
                String worker = "w" + w;
                takers.add(pool.submit((Callable<List<LayerTask>>) () -> {
                    List<LayerTask> mine = new ArrayList<>();
                    for (Optional<TakenTask> t = handle.take(worker, LONG_LEASE); t.isPresent(); t = handle.take(worker, LONG_LEASE)) {
                        mine.add(t.get().task());
                    }
                    return mine;
                }));
            }
            List<LayerTask> all = new ArrayList<>();
            for (Future<List<LayerTask>> taker : takers) {
                all.addAll(taker.get());
            }
            assertThat(all).hasSize(tasks);
            assertThat(new HashSet<>(all)).hasSize(tasks);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Leases are measured by the backend's clock; this waits until even a slow one has passed {@code lease}. */
    private static void waitPast(Duration lease) throws InterruptedException {
        Thread.sleep(lease.toMillis() + 20);
    }
}
