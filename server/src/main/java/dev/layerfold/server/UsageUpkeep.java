package dev.layerfold.server;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.Usage;
import dev.layerfold.storage.usage.UsageOrder;
import dev.layerfold.storage.usage.UsageRebuild;
import dev.layerfold.storage.usage.UsageTotals;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the accounting whole and visible: rebuilds it from the manifests when the store cannot vouch
 * for it (one process at a time where processes share a store), and exports it as metrics of bounded
 * cardinality: the registry's totals and the {@code topRepositories} largest by stored bytes, read
 * again every {@code refresh}. The figures are cluster-wide, so every process exports the same values:
 * aggregate them over processes with {@code max}, never {@code sum}.
 */
final class UsageUpkeep implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UsageUpkeep.class);
    private static final Duration LEASE = Duration.ofMinutes(5);

    private final RepositoryUsage usage;
    private final UsageRebuild rebuild;
    private final Optional<Leases> leases;
    private final UsageProperties properties;
    private final ScheduledExecutorService scheduler;
    private final List<MultiGauge> perRepository;
    private final List<ToLongFunction<Usage>> figures = List.of(Usage::storedBytes, Usage::logicalBytes, Usage::freedBytes,
            Usage::sharedBytes);
    private volatile UsageTotals totals = new UsageTotals(0, 0, 0, 0, 0);

    UsageUpkeep(RepositoryUsage usage, UsageRebuild rebuild, Optional<Leases> leases, UsageProperties properties,
                MeterRegistry registry) {
        this.usage = usage;
        this.rebuild = rebuild;
        this.leases = leases;
        this.properties = properties;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("usage-upkeep").factory());
        total(registry, "layerfold.usage.logical", "blobs any repository holds, each once, as pushed", UsageTotals::logicalBytes);
        total(registry, "layerfold.usage.stored", "what those blobs take in storage, each once", UsageTotals::storedBytes);
        total(registry, "layerfold.usage.shared.logical", "blobs two or more repositories hold, as pushed", UsageTotals::sharedLogicalBytes);
        total(registry, "layerfold.usage.shared.stored", "what those shared blobs take in storage", UsageTotals::sharedStoredBytes);
        Gauge.builder("layerfold.usage.repositories", this, upkeep -> upkeep.totals.repositories())
                .description("repositories with figures").register(registry);
        this.perRepository = List.of(
                repositoryGauge(registry, "layerfold.repository.stored", "stored bytes of the blobs the repository holds (shared ones in full)"),
                repositoryGauge(registry, "layerfold.repository.logical", "bytes of the blobs the repository holds, as pushed"),
                repositoryGauge(registry, "layerfold.repository.freeable", "what deleting the repository would free"),
                repositoryGauge(registry, "layerfold.repository.shared", "bytes, as pushed, the repository shares with others"));
    }

    private void total(MeterRegistry registry, String name, String description, ToLongFunction<UsageTotals> figure) {
        Gauge.builder(name, this, upkeep -> figure.applyAsLong(upkeep.totals)).baseUnit("bytes").description(description)
                .register(registry);
    }

    private static MultiGauge repositoryGauge(MeterRegistry registry, String name, String description) {
        return MultiGauge.builder(name).baseUnit("bytes").description(description + "; the largest repositories by stored bytes only")
                .register(registry);
    }

    void start() {
        scheduler.scheduleWithFixedDelay(this::upkeepQuietly, 0, properties.refresh().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Rebuilds if the figures are incomplete, then reads them for the metrics. */
    void upkeep() throws IOException {
        if (!usage.complete()) {
            rebuildOnce();
        }
        totals = usage.totals();
        List<Usage> top = usage.page(UsageOrder.STORED, 0, properties.topRepositories());
        for (int i = 0; i < perRepository.size(); i++) {
            ToLongFunction<Usage> figure = figures.get(i);
            perRepository.get(i).register(top.stream().map(each -> MultiGauge.Row.of(
                    Tags.of("repository", each.repository().value()), figure.applyAsLong(each))).toList(), true);
        }
    }

    private void rebuildOnce() throws IOException {
        Optional<Lease> lease = leases.isEmpty() ? Optional.empty() : leases.get().tryAcquire("usage-rebuild", LEASE);
        if (leases.isPresent() && lease.isEmpty()) {
            return; // another process rebuilds
        }
        try {
            if (usage.complete()) {
                return;
            }
            LOG.info("per-repository accounting is incomplete (a new store, an older one, or a Redis that lost it): rebuilding it from the manifests");
            long start = System.nanoTime();
            rebuild.run();
            LOG.info("per-repository accounting rebuilt in {} ms", (System.nanoTime() - start) / 1_000_000);
        } finally {
            lease.ifPresent(Lease::close);
        }
    }

    private void upkeepQuietly() {
        try {
            upkeep();
        } catch (IOException | RuntimeException e) {
            LOG.warn("per-repository accounting not refreshed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
