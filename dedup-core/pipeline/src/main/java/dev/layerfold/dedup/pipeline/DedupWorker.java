package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.TakenTask;
import dev.layerfold.storage.usage.RepositoryUsage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes layers from the {@link DedupQueue} and deduplicates them, on a few background threads of
 * this process; any number of processes run workers on one queue. Work yields to client traffic
 * ({@link YieldToClients}): while the registry is serving, no new layer is started, and a layer under
 * way pauses between its pieces; and takes cold layers
 * first ({@link ColdFirst}): a hot one is put back by holding its lease without working on it, so the
 * deferral is one of its deliveries. A task whose worker died
 * is taken over when its lease runs out; one that failed {@link #MAX_DELIVERIES} times is given up
 * and its layer stays intact, so a poisonous layer never blocks the queue.
 */
public final class DedupWorker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DedupWorker.class);
    static final int MAX_DELIVERIES = 5;
    private static final Duration IDLE_POLL = Duration.ofMillis(500);

    private final DedupQueue queue;
    private final DedupIndex index;
    private final LayerDeduplicator deduplicator;
    private final DedupMetrics metrics;
    private final YieldToClients yielding;
    private final ColdFirst order;
    private final Duration lease;
    private final Optional<RepositoryUsage> usage;
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService renewals;
    private volatile boolean running = true;

    /**
     * @param lease how long a task is held without renewal: after a worker died, its task waits this
     *              long before another worker takes it over (renewed every third of it while working)
     */
    public DedupWorker(DedupQueue queue, DedupIndex index, LayerDeduplicator deduplicator, DedupMetrics metrics,
                       BooleanSupplier busy, ColdFirst order, Duration lease) {
        this(queue, index, deduplicator, metrics, busy, order, lease, Optional.empty());
    }

    /** @param usage told what each layer deduplicated stores, for the per-repository accounting */
    public DedupWorker(DedupQueue queue, DedupIndex index, LayerDeduplicator deduplicator, DedupMetrics metrics,
                       BooleanSupplier busy, ColdFirst order, Duration lease, Optional<RepositoryUsage> usage) {
        this(queue, index, deduplicator, metrics, new YieldToClients(busy, Duration.ZERO), order, lease, usage);
    }

    /** @param yielding when the worker starts no layer, and pauses the one under way */
    public DedupWorker(DedupQueue queue, DedupIndex index, LayerDeduplicator deduplicator, DedupMetrics metrics,
                       YieldToClients yielding, ColdFirst order, Duration lease, Optional<RepositoryUsage> usage) {
        this.usage = usage;
        this.queue = queue;
        this.index = index;
        this.deduplicator = deduplicator;
        this.metrics = metrics;
        this.yielding = yielding;
        this.order = order;
        this.lease = lease;
        this.renewals = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("dedup-lease-renewal").factory());
    }

    /** Starts {@code threads} worker threads. */
    public void start(int threadCount) {
        String process = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < threadCount; i++) {
            String name = "dedup-" + process + "-" + i;
            Thread thread = Thread.ofPlatform().daemon().name(name).priority(Thread.MIN_PRIORITY).start(() -> run(name));
            threads.add(thread);
        }
    }

    private void run(String worker) {
        while (running) {
            try {
                if (yielding.busy() || !work(worker)) {
                    Thread.sleep(IDLE_POLL);
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.warn("dedup worker {}: {}", worker, e.toString());
                try {
                    Thread.sleep(IDLE_POLL);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** Does one task if there is one; false if the queue was empty. */
    boolean work(String worker) throws IOException {
        Optional<TakenTask> taken = queue.take(worker, lease);
        if (taken.isEmpty()) {
            return false;
        }
        TakenTask task = taken.get();
        if (task.deliveries() > MAX_DELIVERIES) {
            LOG.warn("layer {} failed deduplication {} times; it stays intact", task.task().layer(), MAX_DELIVERIES);
            index.keepIntact(task.task().layer(), "failed repeatedly");
            metrics.finished(DedupOutcome.intact("failed repeatedly"), 0);
            queue.complete(task);
            return true;
        }
        Optional<Duration> later = order.deferral(task);
        if (later.isPresent()) {
            queue.renew(task, worker, later.get());
            metrics.deferred();
            return true;
        }
        long renewEvery = lease.toMillis() / 3;
        ScheduledFuture<?> renewal = renewals.scheduleAtFixedRate(() -> renew(task, worker), renewEvery, renewEvery,
                TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        try {
            DedupOutcome outcome = deduplicator.deduplicate(task.task(), worker, yielding);
            metrics.finished(outcome, System.nanoTime() - start);
            if (outcome.kind() == DedupOutcome.Kind.DEDUPLICATED && usage.isPresent()) {
                usage.get().stored(task.task().layer(), outcome.storedBytes());
            }
            if (outcome.kind() != DedupOutcome.Kind.RETRY) {
                queue.complete(task);
            } else {
                LOG.info("layer {} will be tried again: {}", task.task().layer(), outcome.reason());
            }
        } finally {
            renewal.cancel(false);
        }
        return true;
    }

    private void renew(TakenTask task, String worker) {
        try {
            if (!queue.renew(task, worker, lease)) {
                LOG.warn("lost the lease on layer {}; another worker may take it over (harmless: the work is idempotent)",
                        task.task().layer());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not renew the lease on layer {}: {}", task.task().layer(), e.toString());
        }
    }

    /**
     * Waits until the queue is empty (every layer queued so far was decided), or the timeout passes;
     * true if it emptied. For tests, benchmarks and operators who want the settled state.
     */
    public boolean awaitIdle(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (queue.backlog() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        renewals.shutdownNow();
    }
}
