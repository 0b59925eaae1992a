package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupTotals;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The dedup pipeline's metrics. Outcomes and durations are counted by this process; the totals
 * (bytes logical and stored, files, layers kept intact and why, backlog) are read from the shared
 * index and queue, so every process reports the cluster's figures. They are read at most every few
 * seconds, whatever the scrape rate.
 */
public final class DedupMetrics {

    private static final Duration TOTALS_MAX_AGE = Duration.ofSeconds(5);

    private final MeterRegistry registry;
    private final DedupIndex index;
    private final DedupQueue queue;
    private final Timer duration;
    private final MultiGauge intact;
    private volatile DedupTotals totals = new DedupTotals(0, 0, 0, 0, 0, Map.of());
    private volatile long backlog;
    private volatile long readAtNanos = System.nanoTime() - TOTALS_MAX_AGE.toNanos() - 1;

    public DedupMetrics(MeterRegistry registry, DedupIndex index, DedupQueue queue) {
        this.registry = registry;
        this.index = index;
        this.queue = queue;
        this.duration = Timer.builder("layerfold.dedup.duration").description("time to deduplicate (or decide about) one layer")
                .publishPercentileHistogram().register(registry);
        this.intact = MultiGauge.builder("layerfold.dedup.layers.intact").description("layers kept intact, by reason")
                .register(registry);
        gauge("layerfold.dedup.backlog", "layers queued for deduplication and not yet decided", m -> m.backlog);
        gauge("layerfold.dedup.layers.deduplicated", "layers stored as files plus a recipe", m -> m.totals.layersDeduplicated());
        bytes("layerfold.dedup.logical", "size of the deduplicated layers as pushed", m -> m.totals.logicalBytes());
        bytes("layerfold.dedup.stored", "what the deduplicated layers take: packs of unique files and layer records",
                m -> m.totals.storedBytes());
        bytes("layerfold.dedup.saved", "logical minus stored bytes of the deduplicated layers",
                m -> m.totals.logicalBytes() - m.totals.storedBytes());
        gauge("layerfold.dedup.files.references", "files in deduplicated layers, counted once per layer", m -> m.totals.fileReferences());
        gauge("layerfold.dedup.files.unique", "distinct files stored", m -> m.totals.uniqueFiles());
    }

    /** A gauge in bytes: Prometheus names it {@code <name>_bytes}, the unit last. */
    private void bytes(String name, String description, ToDoubleFunction<DedupMetrics> value) {
        Gauge.builder(name, this, metrics -> {
            metrics.refresh();
            return value.applyAsDouble(metrics);
        }).description(description).baseUnit("bytes").register(registry);
    }

    private void gauge(String name, String description, ToDoubleFunction<DedupMetrics> value) {
        Gauge.builder(name, this, metrics -> {
            metrics.refresh();
            return value.applyAsDouble(metrics);
        }).description(description).register(registry);
    }

    private synchronized void refresh() {
        if (System.nanoTime() - readAtNanos < TOTALS_MAX_AGE.toNanos()) {
            return;
        }
        try {
            totals = index.totals();
            backlog = queue.backlog();
            readAtNanos = System.nanoTime();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dedup totals", e);
        }
        intact.register(totals.intactByReason().entrySet().stream()
                .map(e -> MultiGauge.Row.of(Tags.of("reason", e.getKey()), e.getValue()))
                .toList(), true);
    }

    void finished(DedupOutcome outcome, long nanos) {
        Counter.builder("layerfold.dedup.tasks").description("dedup tasks finished, by outcome")
                .tags("outcome", outcome.kind().name().toLowerCase(), "reason", outcome.reason())
                .register(registry).increment();
        duration.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A hot layer put back so colder ones go first. */
    void deferred() {
        Counter.builder("layerfold.dedup.tasks.deferred").description("hot layers put back so colder ones are deduplicated first")
                .register(registry).increment();
    }
}
