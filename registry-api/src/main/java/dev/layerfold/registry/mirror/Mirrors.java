package dev.layerfold.registry.mirror;

import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.registry.blob.BlobPullThrough;
import dev.layerfold.registry.manifest.ManifestMirror;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The configured mirror rules, each run once at startup and then {@code interval} after the end of its
 * previous run. All rules share one thread: mirroring is background work, and one rule at a time keeps
 * its load on the upstream and on this registry to one fetch at a time.
 */
@Component
@EnableConfigurationProperties(MirrorProperties.class)
public class Mirrors implements SmartLifecycle {

    private final List<MirrorJob> jobs;
    private volatile ScheduledExecutorService scheduler;

    Mirrors(MirrorProperties properties, Upstreams upstreams, ManifestMirror manifests, BlobPullThrough blobs,
            MetadataStore metadata, ObjectProvider<Leases> leases, ObjectProvider<RegistryEventListener> events,
            ObjectProvider<MeterRegistry> meters) {
        MeterRegistry registry = meters.getIfAvailable(() -> Metrics.globalRegistry);
        this.jobs = properties.rules().stream().map(rule -> new MirrorJob(rule, upstreams, manifests, blobs, metadata, leases,
                events, registry, Clock.systemUTC())).toList();
    }

    List<MirrorJob> jobs() {
        return jobs;
    }

    /** A rule and what its last run in this process did; {@code lastRun} empty before the first. */
    public record RuleStatus(MirrorProperties.Rule rule, Optional<MirrorRun> lastRun) {
    }

    /** The rules with what their last run in this process did, for operators. */
    public List<RuleStatus> status() {
        return jobs.stream().map(job -> new RuleStatus(job.rule(), job.lastRun())).toList();
    }

    @Override
    public void start() {
        if (jobs.isEmpty() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("mirror").factory());
        for (MirrorJob job : jobs) {
            scheduler.scheduleWithFixedDelay(job::run, 0, job.rule().interval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService running = scheduler;
        if (running != null) {
            running.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }
}
