package dev.layerfold.dedup.pipeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which deduplicated layers also keep an intact copy, in mode {@code budgeted}: the layers a Caffeine
 * cache holds, weighed by their size, within a budget of bytes. Every pull of a layer is an access
 * ({@link #pulled}): W-TinyLFU's frequency sketch learns popularity over the last many pulls (ten per
 * unit of the cache's size before it halves its counts), its small window lets a layer pulled in a
 * burst stay a while, and its admission keeps a layer pulled once from evicting one pulled often. So
 * the base layers everyone pulls stay intact and one-off pulls of old versions go through the window
 * and out. The cache holds only digests and sizes; the copies are blobs under the layers' digests, and
 * an eviction deletes the copy if the layer is deduplicated (else the blob is the layer's only copy,
 * and the worker thins it when it deduplicates the layer, as the layer is no longer held).
 *
 * <p>The budget is recomputed by {@link #resize} (the sweeper's every pass): by default a share of
 * what deduplication saves, so the registry with copies stores less than it would without dedup
 * whatever the traffic. The cache lives in this process: with several processes each learns from the
 * pulls it serves, and the sweeper's process thins copies its own cache does not hold.
 */
public final class IntactCopyBudget {

    private static final Logger LOG = LoggerFactory.getLogger(IntactCopyBudget.class);
    /** Caffeine weighs in ints: KiB keeps a 2 TiB budget and any layer within range. */
    private static final int UNIT = 1024;
    /** Each layer weighs at least this (in units), so the cache holds at most budget / 64 KiB digests. */
    private static final long MIN_WEIGHT = 64;

    private final BlobStore blobs;
    private final DedupIndex index;
    private final LongSupplier budgetBytes;
    private final Cache<Digest, Long> copies;
    private final Counter evicted;
    private volatile long budget;

    /**
     * @param budgetBytes the budget now (read by {@link #resize}); a fixed size, or a share of the
     *                    bytes dedup saves
     * @param maintenance where evictions delete their copies (off the pulls' threads)
     */
    public IntactCopyBudget(BlobStore blobs, DedupIndex index, LongSupplier budgetBytes, Executor maintenance, MeterRegistry metrics) {
        this.blobs = blobs;
        this.index = index;
        this.budgetBytes = budgetBytes;
        this.budget = Math.max(0, budgetBytes.getAsLong());
        this.copies = Caffeine.newBuilder()
                .maximumWeight(units(budget))
                .weigher((Digest layer, Long size) -> Math.toIntExact(Math.min(Integer.MAX_VALUE, Math.max(MIN_WEIGHT, units(size)))))
                .executor(maintenance)
                .removalListener(this::removed)
                .build();
        this.evicted = Counter.builder("layerfold.dedup.copies.evicted")
                .description("intact copies deleted because more popular layers took their share of the budget").register(metrics);
        Gauge.builder("layerfold.dedup.copies.budget", this, b -> b.budget).baseUnit("bytes")
                .description("bytes intact copies of deduplicated layers may take (mode budgeted)").register(metrics);
        Gauge.builder("layerfold.dedup.copies.held", this, b -> b.heldBytes()).baseUnit("bytes")
                .description("bytes of the layers the intact-copy budget holds").register(metrics);
    }

    private static long units(long bytes) {
        return (bytes + UNIT - 1) / UNIT;
    }

    /**
     * A client pulled {@code layer}: counts towards its popularity, and admits it (it will keep or get
     * a copy) unless more popular layers fill the budget. Layers that are never deduplicated (kept
     * intact for a reason) are not counted: their one copy costs nothing extra.
     */
    public void pulled(Digest layer) throws IOException {
        if (copies.asMap().containsKey(layer)) {
            copies.getIfPresent(layer);
            return;
        }
        Optional<LayerState> state = index.layer(layer);
        Optional<Long> size;
        if (state.isPresent() && state.get() instanceof LayerState.Deduplicated deduplicated) {
            size = Optional.of(deduplicated.logicalSize());
        } else if (state.isEmpty()) {
            size = blobs.size(layer); // not decided yet: if it is held when the worker deduplicates it, it stays intact
        } else {
            return;
        }
        size.ifPresent(bytes -> copies.get(layer, ignored -> bytes));
    }

    /** Whether the layer should have an intact copy now. */
    public boolean holds(Digest layer) {
        return copies.asMap().containsKey(layer);
    }

    /** Room left in the budget, for layers rebuilt ahead: never past it. */
    public long freeBytes() {
        return Math.max(0, budget - heldBytes());
    }

    /** Bytes of the layers held. */
    public long heldBytes() {
        return policy().weightedSize().orElse(0) * UNIT;
    }

    /** Takes in a layer whose copy exists (rebuilt ahead, or found by the sweeper): held if the policy admits it. */
    public void adopt(Digest layer, long size) {
        copies.get(layer, ignored -> size);
    }

    /** A restore published a copy of {@code layer}: held if the policy admits it, else evicted (and deleted) at once. */
    public void copyWritten(Digest layer, long size) {
        if (!holds(layer)) {
            adopt(layer, size);
        }
    }

    /** Reads the budget again, and evicts what exceeds it. */
    public void resize() {
        long now = Math.max(0, budgetBytes.getAsLong());
        if (now != budget) {
            budget = now;
            policy().setMaximum(units(now));
        }
        copies.cleanUp();
    }

    private Policy.Eviction<Digest, Long> policy() {
        return copies.policy().eviction().orElseThrow();
    }

    private void removed(Digest layer, Long size, RemovalCause cause) {
        if (!cause.wasEvicted()) {
            return;
        }
        try {
            if (index.layer(layer).filter(LayerState.Deduplicated.class::isInstance).isPresent() && blobs.delete(layer)) {
                evicted.increment();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("intact copy of layer {} was not deleted (the sweeper will): {}", layer, e.toString());
        }
    }
}
