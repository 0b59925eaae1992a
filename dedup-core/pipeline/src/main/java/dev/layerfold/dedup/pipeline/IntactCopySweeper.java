package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves deduplicated layers between intact and thinned as their pulls change ({@link IntactCopyPolicy}):
 * deletes the intact copy of a layer gone cold, rehydrates a deduplicated layer gone hot, and forgets
 * the pull counts of layers nobody pulled for {@link #FORGET_AFTER}, which keeps those counts bounded.
 * It walks the pull counts, not the bucket: a layer never pulled has no copy but the one the worker
 * already thinned. One process at a time does it (a lease, where processes share the backend).
 */
public final class IntactCopySweeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IntactCopySweeper.class);
    static final Duration FORGET_AFTER = Duration.ofDays(7);
    private static final double NO_PULLS = 0.01;

    /** What one pass did. */
    public record Pass(int thinned, int rehydrated, int forgotten) {
    }

    private final BlobStore blobs;
    private final DedupIndex index;
    private final LayerPulls pulls;
    private final IntactCopyPolicy policy;
    private final LayerRehydrator rehydrator;
    private final Leases leases;
    private final Counter thinned;
    private final Counter rehydrated;
    private final YieldToClients yielding;
    private final ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("intact-copy-sweep").factory());

    /** @param leases null on a backend one process uses alone */
    public IntactCopySweeper(BlobStore blobs, DedupIndex index, LayerPulls pulls, IntactCopyPolicy policy,
                             LayerRehydrator rehydrator, Leases leases, MeterRegistry metrics) {
        this(blobs, index, pulls, policy, rehydrator, leases, metrics, YieldToClients.NEVER);
    }

    /** @param yielding rebuilds (rehydrations, rebuilds ahead) start only while no client is served */
    public IntactCopySweeper(BlobStore blobs, DedupIndex index, LayerPulls pulls, IntactCopyPolicy policy,
                             LayerRehydrator rehydrator, Leases leases, MeterRegistry metrics, YieldToClients yielding) {
        this.yielding = yielding;
        this.blobs = blobs;
        this.index = index;
        this.pulls = pulls;
        this.policy = policy;
        this.rehydrator = rehydrator;
        this.leases = leases;
        this.thinned = Counter.builder("layerfold.dedup.copies.thinned")
                .description("intact copies of deduplicated layers deleted once the layers were cold").register(metrics);
        this.rehydrated = Counter.builder("layerfold.dedup.copies.rehydrated")
                .description("deduplicated layers rebuilt into an intact copy once they were hot").register(metrics);
    }

    /** Runs a pass every {@code interval}, until closed. */
    public void start(Duration interval) {
        schedule.scheduleWithFixedDelay(this::passQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void passQuietly() {
        try {
            Optional<Lease> lease = leases == null ? Optional.empty() : leases.tryAcquire("intact-copy-sweep", Duration.ofMinutes(2));
            if (leases != null && lease.isEmpty()) {
                return; // another process sweeps
            }
            try {
                Pass pass = pass();
                if (pass.thinned() + pass.rehydrated() > 0) {
                    LOG.info("intact copies: {} thinned, {} rehydrated", pass.thinned(), pass.rehydrated());
                }
            } finally {
                lease.ifPresent(Lease::close);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("intact-copy sweep stopped, the next one goes on: {}", e.toString());
        }
    }

    /** One pass over every layer with pull counts. */
    public Pass pass() throws IOException {
        policy.budget().ifPresent(IntactCopyBudget::resize);
        long now = pulls.nowMillis();
        int thinnedNow = 0;
        int rehydratedNow = 0;
        List<Digest> forgettable = new ArrayList<>();
        // Hottest first: rebuilds ahead fill the budget's room with the most pulled layers.
        List<Map.Entry<Digest, LayerHeat>> byHeat = new ArrayList<>(pulls.all().entrySet());
        byHeat.sort(Comparator.comparingDouble((Map.Entry<Digest, LayerHeat> e) -> -e.getValue().pullsAt(now)));
        for (Map.Entry<Digest, LayerHeat> entry : byHeat) {
            Digest layer = entry.getKey();
            LayerHeat heat = entry.getValue();
            Optional<LayerState> state = index.layer(layer);
            boolean deduplicated = state.filter(LayerState.Deduplicated.class::isInstance).isPresent();
            long size = deduplicated ? ((LayerState.Deduplicated) state.get()).logicalSize() : 0;
            boolean hasCopy = deduplicated && blobs.size(layer).isPresent();
            if (hasCopy && !policy.keepsCopy(layer, size, heat, now)) {
                blobs.delete(layer);
                thinned.increment();
                thinnedNow++;
            } else if (deduplicated && !hasCopy && !yielding.busy() && policy.rehydrates(size, heat, now)) {
                rehydrator.rehydrate(layer);
                rehydrated.increment();
                rehydratedNow++;
            } else if (!hasCopy && heat.pullsAt(now) < NO_PULLS && now - heat.lastPullMillis() > FORGET_AFTER.toMillis()) {
                forgettable.add(layer);
            }
        }
        pulls.forget(forgettable, now - FORGET_AFTER.toMillis());
        return new Pass(thinnedNow, rehydratedNow, forgettable.size());
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
