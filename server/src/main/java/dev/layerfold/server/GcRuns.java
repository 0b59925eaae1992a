package dev.layerfold.server;

import dev.layerfold.gc.CheckReport;
import dev.layerfold.gc.CollectionReport;
import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.RegistryCheck;
import dev.layerfold.registry.manifest.Retention;
import dev.layerfold.registry.manifest.RetentionPolicy;
import dev.layerfold.registry.manifest.RetentionReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs the collector on a schedule or on demand, one run at a time in this process, and publishes
 * what the runs did: {@code layerfold.gc.reclaimed.bytes}, {@code layerfold.gc.removed.objects},
 * {@code layerfold.gc.packs.reclaimed.bytes}, {@code layerfold.gc.packs.rewritten},
 * {@code layerfold.gc.last.run.timestamp} (epoch seconds) and {@code layerfold.gc.check.problems}.
 */
final class GcRuns implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(GcRuns.class.getName());

    private final GarbageCollector collector;
    private final RegistryCheck check;
    private final Retention retention;
    private final List<RetentionPolicy> policies;
    private final Counter reclaimed;
    private final Counter removed;
    private final Counter packBytesReclaimed;
    private final Counter packsRewritten;
    private final AtomicLong lastRun = new AtomicLong();
    /** The last {@link #HISTORY} collections of this process, newest first. */
    private final Deque<CollectionReport> history = new ConcurrentLinkedDeque<>();
    private static final int HISTORY = 10;
    private final AtomicLong problems = new AtomicLong();
    private final ReentrantLock oneAtATime = new ReentrantLock();
    private final ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("garbage-collector").factory());

    GcRuns(GarbageCollector collector, RegistryCheck check, Retention retention, List<RetentionPolicy> policies,
           MeterRegistry registry) {
        this.collector = collector;
        this.check = check;
        this.retention = retention;
        this.policies = List.copyOf(policies);
        this.reclaimed = Counter.builder("layerfold.gc.reclaimed").baseUnit("bytes")
                .description("bytes the garbage collector deleted").register(registry);
        this.removed = Counter.builder("layerfold.gc.removed").baseUnit("objects")
                .description("blobs and manifests the garbage collector deleted").register(registry);
        this.packBytesReclaimed = Counter.builder("layerfold.gc.packs.reclaimed").baseUnit("bytes")
                .description("bytes of sparse packs less those of their rewrites (the old packs go a pack grace later)")
                .register(registry);
        this.packsRewritten = Counter.builder("layerfold.gc.packs.rewritten").baseUnit("packs")
                .description("sparse packs whose live files were moved to a new pack").register(registry);
        Gauge.builder("layerfold.gc.last.run.timestamp", lastRun, AtomicLong::get).baseUnit("seconds")
                .description("when the last collection in this process finished (epoch)").register(registry);
        registry.gauge("layerfold.gc.check.problems", problems);
    }

    void start(Duration interval) {
        schedule.scheduleWithFixedDelay(this::runLogged, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One run now, after any run of this process in progress; empty if another process holds the lease. */
    Optional<CollectionReport> runNow() throws IOException {
        oneAtATime.lock();
        try {
            Optional<CollectionReport> report = collector.collect();
            report.ifPresent(done -> {
                reclaimed.increment(done.bytesReclaimed());
                removed.increment(done.blobsRemoved() + done.retiredPacksDeleted());
                packBytesReclaimed.increment(done.packBytesReclaimed());
                packsRewritten.increment(done.packsRewritten());
                lastRun.set(done.finished().getEpochSecond());
                history.addFirst(done);
                while (history.size() > HISTORY) {
                    history.pollLast();
                }
            });
            return report;
        } finally {
            oneAtATime.unlock();
        }
    }

    /** This process's last collections, newest first (at most ten). */
    List<CollectionReport> recentRuns() {
        return List.copyOf(history);
    }

    Optional<CollectionReport> lastRun() {
        return collector.lastRun();
    }

    /** Checks the whole registry (repairing what it can, if asked) and publishes the problems found. */
    CheckReport check(boolean repair) throws IOException {
        CheckReport report = check.run(repair);
        problems.set(report.problemCount() - report.repaired());
        return report;
    }

    /** Applies the configured retention policies, or (dry run) says what they would remove. */
    RetentionReport applyRetention(boolean dryRun) throws IOException {
        return retention.apply(policies, dryRun);
    }

    private void runLogged() {
        try {
            if (!policies.isEmpty()) {
                RetentionReport report = applyRetention(false);
                LOG.log(System.Logger.Level.INFO, "retention removed {0} tags and {1} manifests, freeing {2} bytes",
                        report.tags().size(), report.manifests().size(), report.bytesFreed());
            }
            runNow().ifPresent(report -> LOG.log(System.Logger.Level.INFO, "garbage collection: {0}", report));
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "garbage collection failed; retrying at the next interval", e);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
