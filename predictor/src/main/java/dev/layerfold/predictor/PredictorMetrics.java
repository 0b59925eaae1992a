package dev.layerfold.predictor;

import dev.layerfold.predictor.tier.LayerTier;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the predictor and its tiers did, in Micrometer: blob GETs by where they were served from
 * ({@code memory}, {@code disk}, {@code intact}: the blob store as it is, {@code rebuilt}: a
 * deduplicated layer rebuilt on demand), the share served from a tier, the time to serve by tier,
 * and what fetching ahead achieved.
 */
public final class PredictorMetrics {

    /** Where a blob GET was served from. */
    public enum Source {
        MEMORY, DISK, INTACT, REBUILT;

        String tag() {
            return name().toLowerCase();
        }

        static Source of(LayerTier tier) {
            return tier.name().equals("memory") ? MEMORY : DISK;
        }
    }

    private final MeterRegistry registry;
    private final Map<Source, Counter> served = new ConcurrentHashMap<>();
    private final Map<Source, Timer> serveTime = new ConcurrentHashMap<>();
    private final Counter joined;

    public PredictorMetrics(MeterRegistry registry, Tiers tiers) {
        this.registry = registry;
        for (Source source : Source.values()) {
            served.put(source, Counter.builder("layerfold.predictor.requests").tag("source", source.tag())
                    .description("blob GETs by where they were served from").register(registry));
            serveTime.put(source, Timer.builder("layerfold.predictor.serve.time").tag("source", source.tag())
                    .description("from opening a blob to closing its stream, by where it came from")
                    .register(registry));
        }
        this.joined = Counter.builder("layerfold.predictor.joined")
                .description("blob GETs that waited for a fetch ahead under way instead of fetching again").register(registry);
        Gauge.builder("layerfold.predictor.hit.ratio", this, PredictorMetrics::hitRatio)
                .description("share of blob GETs served from the memory or disk tier").register(registry);
        for (LayerTier tier : tiers.inOrder()) {
            Gauge.builder("layerfold.predictor.tier.bytes", tier, LayerTier::usedBytes).tag("tier", tier.name())
                    .baseUnit("bytes").register(registry);
            Gauge.builder("layerfold.predictor.tier.capacity", tier, LayerTier::capacity).tag("tier", tier.name())
                    .baseUnit("bytes").register(registry);
            FunctionCounter.builder("layerfold.predictor.prefetched.unused", tier, LayerTier::unusedBytes)
                    .tag("tier", tier.name()).baseUnit("bytes")
                    .description("bytes fetched ahead and dropped without a GET").register(registry);
        }
    }

    Timer.Sample start() {
        return Timer.start(registry);
    }

    void served(Source source) {
        served.get(source).increment();
    }

    void finished(Timer.Sample sample, Source source) {
        sample.stop(serveTime.get(source));
    }

    void joined() {
        joined.increment();
    }

    /** A fetch ahead ended ({@code fetched} or {@code rebuilt} into a tier, {@code held}, {@code local}, {@code too-large}, {@code no-room}, {@code busy}, {@code failed}). */
    void prefetch(String outcome) {
        registry.counter("layerfold.predictor.prefetches", "outcome", outcome).increment();
    }

    void prefetched(LayerTier tier, long bytes) {
        registry.counter("layerfold.predictor.prefetched.bytes", "tier", tier.name()).increment(bytes);
    }

    /** Learning work refused because its queue was full: the pull is not learned from, the request is not slowed. */
    void learningDropped() {
        registry.counter("layerfold.predictor.learning.dropped").increment();
    }

    private double hitRatio() {
        double tiers = served.get(Source.MEMORY).count() + served.get(Source.DISK).count();
        double all = served.values().stream().mapToDouble(Counter::count).sum();
        return all == 0 ? 0 : tiers / all;
    }
}
