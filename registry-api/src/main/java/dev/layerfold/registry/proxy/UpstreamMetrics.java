package dev.layerfold.registry.proxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Per upstream: {@code layerfold_upstream_requests_total{upstream,kind}} (kind: manifest, blob, token),
 * {@code layerfold_upstream_received_bytes_total{upstream}}, {@code layerfold_upstream_failures_total{upstream,reason}}
 * and {@code layerfold_upstream_stale_served_total{upstream}} (tags served from the cache because the upstream
 * could not be asked).
 */
final class UpstreamMetrics {

    private final MeterRegistry registry;
    private final String upstream;
    private final Counter bytes;
    private final Counter stale;
    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();

    UpstreamMetrics(MeterRegistry registry, String upstream) {
        this.registry = registry == null ? Metrics.globalRegistry : registry;
        this.upstream = upstream;
        this.bytes = Counter.builder("layerfold.upstream.received").baseUnit("bytes")
                .description("Bytes received from a pull-through upstream").tag("upstream", upstream).register(this.registry);
        this.stale = Counter.builder("layerfold.upstream.stale.served")
                .description("Tags served from the cache past their TTL because the upstream could not be asked")
                .tag("upstream", upstream).register(this.registry);
    }

    void request(String kind) {
        counters.computeIfAbsent("request:" + kind, key -> Counter.builder("layerfold.upstream.requests")
                .description("Requests sent to a pull-through upstream").tag("upstream", upstream).tag("kind", kind)
                .register(registry)).increment();
    }

    void failure(UpstreamException.Reason reason) {
        counters.computeIfAbsent("failure:" + reason, key -> Counter.builder("layerfold.upstream.failures")
                .description("Failed requests to a pull-through upstream, by reason").tag("upstream", upstream)
                .tag("reason", reason.label()).register(registry)).increment();
    }

    void received(long count) {
        bytes.increment(count);
    }

    void staleServed() {
        stale.increment();
    }
}
