package dev.layerfold.predictor.tier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A tier of whole layers, bounded by bytes: in memory or in a local directory. Every layer is checked
 * against its digest before it is kept, and is served whole or by range.
 *
 * <p>Two parts share the capacity. Layers served before live in a Caffeine cache weighted by size,
 * whose admission policy (W-TinyLFU) keeps what is pulled often over what was pulled once. Layers
 * fetched ahead for a GET that has not come yet are <em>staged</em>: held outside that policy (which
 * would reject a newcomer nobody asked for yet) until their first GET moves them into the cache, or
 * for at most {@code hold}, after which they are dropped and counted as fetched for nothing. Staging
 * may take up to half the capacity; the cache gets the rest, resized as staged bytes come and go.
 */
public final class LayerTier {

    /** Caffeine weighs in ints; layers are weighed in KiB so one may be up to 2 TiB. */
    private static final int WEIGHT_UNIT = 1024;

    /**
     * Copies made while serving, at once: each holds up to a layer's bytes (in memory, or a file not yet
     * counted), so their number is what bounds them; beyond it a layer is served without a copy.
     */
    private static final int FILLS_AT_ONCE = 4;

    private final String name;
    private final Shelf shelf;
    private final long capacity;
    private final long maxLayer;
    private final Duration hold;
    private final Clock clock;
    private final Cache<Digest, Kept> cache;
    private final Semaphore fills = new Semaphore(FILLS_AT_ONCE);
    private final ReentrantLock stagingLock = new ReentrantLock();
    /** Guarded by stagingLock; oldest first. */
    private final Map<Digest, Staged> staged = new LinkedHashMap<>();
    /** Guarded by stagingLock: staged layers and room reserved for those being fetched. */
    private long stagedBytes;
    /** Guarded by stagingLock. */
    private long unusedBytes;

    private record Staged(Kept kept, Instant since) {
    }

    LayerTier(String name, Shelf shelf, long capacity, long maxLayer, Duration hold, Clock clock) throws IOException {
        this.name = name;
        this.shelf = shelf;
        this.capacity = capacity;
        this.maxLayer = maxLayer;
        this.hold = hold;
        this.clock = clock;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(weight(capacity))
                .<Digest, Kept>weigher((digest, kept) -> weight(kept.size()))
                // Removal runs on the caller's thread: a dropped file is gone before the next fill counts room.
                .executor(Runnable::run)
                .removalListener((Digest digest, Kept kept, RemovalCause cause) -> {
                    if (kept != null) {
                        kept.discard();
                    }
                })
                .build();
        shelf.existing().forEach(cache::put);
    }

    /** A tier on the heap; it admits layers up to an eighth of its capacity, so one never flushes it. */
    public static LayerTier inMemory(long capacity, Duration hold, Clock clock) throws IOException {
        return new LayerTier("memory", new MemoryShelf(), capacity, Math.min(capacity / 8, Integer.MAX_VALUE - 8), hold, clock);
    }

    /** A tier in {@code directory}, which keeps its layers over a restart; it admits layers up to a quarter of its capacity. */
    public static LayerTier onDisk(Path directory, long capacity, Duration hold, Clock clock) throws IOException {
        return new LayerTier("disk", new DiskShelf(directory), capacity, capacity / 4, hold, clock);
    }

    private static int weight(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bytes + WEIGHT_UNIT - 1) / WEIGHT_UNIT));
    }

    public String name() {
        return name;
    }

    /** Whether a layer of this size may be kept here at all. */
    public boolean admits(long size) {
        return size <= maxLayer;
    }

    public boolean holds(Digest digest) {
        if (cache.getIfPresent(digest) != null) {
            return true;
        }
        stagingLock.lock();
        try {
            return staged.containsKey(digest);
        } finally {
            stagingLock.unlock();
        }
    }

    /**
     * The layer's bytes from this tier, or empty if it is not here. A staged layer is thereby used: it
     * moves into the cache.
     */
    public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        Kept kept = cache.getIfPresent(digest);
        if (kept == null) {
            kept = promote(digest);
        }
        if (kept == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(kept.open(offset, length));
        } catch (NoSuchFileException droppedMeanwhile) {
            return Optional.empty();
        }
    }

    private Kept promote(Digest digest) {
        Staged used;
        stagingLock.lock();
        try {
            used = staged.remove(digest);
            if (used == null) {
                return null;
            }
            stagedBytes -= used.kept().size();
            resizeCache();
        } finally {
            stagingLock.unlock();
        }
        cache.put(digest, used.kept());
        return used.kept();
    }

    /** Guarded by stagingLock: the cache gets what staging does not hold. */
    private void resizeCache() {
        long room = weight(capacity) - (stagedBytes == 0 ? 0 : weight(stagedBytes));
        cache.policy().eviction().ifPresent(eviction -> eviction.setMaximum(Math.max(0, room)));
    }

    /**
     * Fetches a layer ahead of its GET and stages it. Returns false without reading if the layer is
     * here already, too large for the tier, or staging is full.
     *
     * @param source opened only once room is reserved
     * @throws IOException if the source fails or its bytes are not the layer's (nothing is kept then)
     */
    public boolean stage(Digest digest, long size, LayerSource source) throws IOException {
        dropStale();
        if (!admits(size) || holds(digest) || !reserve(size)) {
            return false;
        }
        Kept kept = null;
        try {
            Shelf.Writer writer = shelf.writer(digest, size);
            try (InputStream in = source.open()) {
                copyVerified(in, writer.output(), digest, size);
                kept = writer.keep();
            } finally {
                if (kept == null) {
                    writer.abandon();
                }
            }
        } finally {
            stagingLock.lock();
            try {
                if (kept == null) {
                    stagedBytes -= size;
                } else {
                    Staged before = staged.put(digest, new Staged(kept, clock.instant()));
                    if (before != null) { // staged twice at once: keep the later copy only
                        stagedBytes -= before.kept().size();
                        before.kept().discard();
                    }
                }
            } finally {
                stagingLock.unlock();
            }
        }
        return true;
    }

    private boolean reserve(long size) {
        stagingLock.lock();
        try {
            if (stagedBytes + size > capacity / 2) {
                return false;
            }
            stagedBytes += size;
            resizeCache();
            return true;
        } finally {
            stagingLock.unlock();
        }
    }

    /**
     * Starts keeping a layer a client is being sent from elsewhere: the caller copies what it sends
     * into the fill, and the layer is kept in the cache once whole and verified. Empty if the layer is
     * here already, too large, or {@link #FILLS_AT_ONCE} copies are being made.
     */
    public Optional<Fill> fill(Digest digest, long size) throws IOException {
        if (!admits(size) || holds(digest) || !fills.tryAcquire()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Fill(digest, size, shelf.writer(digest, size)));
        } catch (IOException | RuntimeException e) {
            fills.release();
            throw e;
        }
    }

    /** A layer being copied into the tier as it is served. */
    public final class Fill {
        private final Digest digest;
        private final long size;
        private final Shelf.Writer writer;
        private final AtomicBoolean ended = new AtomicBoolean();

        private Fill(Digest digest, long size, Shelf.Writer writer) {
            this.digest = digest;
            this.size = size;
            this.writer = writer;
        }

        public OutputStream output() {
            return writer.output();
        }

        /** Checks what was written against the digest and keeps it; abandons it if it is not the layer. */
        public boolean complete() throws IOException {
            if (!end()) {
                return false;
            }
            Kept written;
            try {
                written = writer.keep();
            } catch (IOException | RuntimeException e) {
                writer.abandon();
                throw e;
            }
            try (InputStream in = written.open(0, -1)) {
                copyVerified(in, OutputStream.nullOutputStream(), digest, size);
            } catch (IOException e) {
                written.discard();
                return false;
            }
            if (holds(digest)) {
                written.discard();
            } else {
                cache.put(digest, written);
            }
            return true;
        }

        /** Drops the copy; a no-op once it ended. */
        public void abandon() {
            if (end()) {
                writer.abandon();
            }
        }

        private boolean end() {
            if (ended.compareAndSet(false, true)) {
                fills.release();
                return true;
            }
            return false;
        }
    }

    /** Drops staged layers held past {@code hold} without their GET; returns how many bytes that was. */
    public long dropStale() {
        Instant cutoff = clock.instant().minus(hold);
        long dropped = 0;
        stagingLock.lock();
        try {
            for (Iterator<Staged> oldestFirst = staged.values().iterator(); oldestFirst.hasNext(); ) {
                Staged next = oldestFirst.next();
                if (!next.since().isBefore(cutoff)) {
                    break;
                }
                oldestFirst.remove();
                next.kept().discard();
                dropped += next.kept().size();
            }
            stagedBytes -= dropped;
            unusedBytes += dropped;
            resizeCache();
        } finally {
            stagingLock.unlock();
        }
        return dropped;
    }

    /** Bytes fetched ahead and dropped without a GET, since the tier was made. */
    public long unusedBytes() {
        stagingLock.lock();
        try {
            return unusedBytes;
        } finally {
            stagingLock.unlock();
        }
    }

    /** Bytes the tier holds now, staged and cached. */
    public long usedBytes() {
        long cached = cache.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0L)).orElse(0L) * WEIGHT_UNIT;
        stagingLock.lock();
        try {
            return cached + stagedBytes;
        } finally {
            stagingLock.unlock();
        }
    }

    public long capacity() {
        return capacity;
    }

    private static void copyVerified(InputStream in, OutputStream out, Digest digest, long size) throws IOException {
        MessageDigest hash = digest.algorithm().newMessageDigest();
        byte[] buffer = new byte[64 * 1024];
        long copied = 0;
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            hash.update(buffer, 0, read);
            out.write(buffer, 0, read);
            copied += read;
        }
        if (copied != size || !Digest.fromBytes(digest.algorithm(), hash.digest()).equals(digest)) {
            throw new IOException("the bytes fetched for " + digest + " are not the layer ("
                    + copied + " of " + size + " bytes, or another digest)");
        }
    }

    /** Where a layer is fetched from. */
    @FunctionalInterface
    public interface LayerSource {
        InputStream open() throws IOException;
    }
}
