package dev.layerfold.restore;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.RebuildPlan;
import dev.layerfold.dedup.pipeline.RebuildMemory;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds deduplicated layers for clients, streaming: the encoder runs on a bounded pool of rebuild
 * threads (a rebuild is CPU work; more at once than cores only slows each), the files it needs are
 * fetched in parallel ahead of it, and the bytes go out through a {@link SharedRebuild} as they are
 * made, so the first bytes leave before the last file is read. Requests for a layer already being
 * rebuilt in this process join that rebuild. The digest is checked as the bytes pass; each reader
 * holds back the last byte of its range until it matched.
 *
 * <p>Each rebuild is a {@link RebuildPlan} the codec hands out: the files to fetch, the heap to hold,
 * where its bytes start. A rebuild reserves the most heap it can hold ({@link #heapBound}) from the {@link RebuildMemory}
 * before it fetches or encodes anything, and gives it back when it ends; the request that starts it
 * waits for that (its client keeps its connection; those that join wait with it). So the heap that
 * restores hold is bounded however many clients pull at once.
 */
public final class LayerRestorer {

    private static final Logger LOG = LoggerFactory.getLogger(LayerRestorer.class);
    /** A layer record on the heap, per byte of its stored blob (zstd-compressed JSON): a generous bound. */
    private static final long RECORD_HEAP_PER_BYTE = 16;

    private final BlobStore blobs;
    private final DedupIndex index;
    private final LayerRebuilder rebuilder;
    private final ExecutorService rebuilds;
    private final ExecutorService fetchers;
    private final StoredFiles storedFiles;
    private final Timer duration;
    private final Counter verificationFailures;
    private final Counter resumed;
    private final Path spoolDirectory;
    private final RebuildMemory memory;
    /** Rebuilds running in this process, which a request for the same layer joins instead of rebuilding again. */
    private final ConcurrentMap<Digest, SharedRebuild> inProgress = new ConcurrentHashMap<>();

    /**
     * @param rebuilds threads that run encoders, bounded (typically one per core)
     * @param fetchers threads that read and decompress stored files (I/O bound: more of them than cores)
     * @param spoolDirectory local directory for layers being rebuilt (each as large as its layer while it is read)
     * @param memory the heap rebuilds may hold at once, shared with every other rebuild in the process
     */
    public LayerRestorer(BlobStore blobs, DedupIndex index, LayerRebuilder rebuilder, ExecutorService rebuilds,
                         ExecutorService fetchers, Path spoolDirectory, RebuildMemory memory, MeterRegistry metrics) {
        this.spoolDirectory = spoolDirectory;
        this.blobs = blobs;
        this.index = index;
        this.rebuilder = rebuilder;
        this.rebuilds = rebuilds;
        this.fetchers = fetchers;
        this.memory = memory;
        this.storedFiles = new StoredFiles(blobs);
        this.duration = Timer.builder("layerfold.restore.duration").description("time to rebuild a deduplicated layer for a client")
                .publishPercentileHistogram().register(metrics);
        this.verificationFailures = Counter.builder("layerfold.restore.verification.failures")
                .description("rebuilt layers whose bytes did not match their digest (the response was cut); alert on any")
                .register(metrics);
        this.resumed = Counter.builder("layerfold.restore.resumed")
                .description("range requests rebuilt from a restart point instead of the layer's first byte").register(metrics);
    }

    /** A restorer whose rebuilds share a budget of {@code 1 GiB}: for tests and tools that bound nothing else. */
    LayerRestorer(BlobStore blobs, DedupIndex index, LayerRebuilder rebuilder, ExecutorService rebuilds,
                  ExecutorService fetchers, Path spoolDirectory, MeterRegistry metrics) {
        this(blobs, index, rebuilder, rebuilds, fetchers, spoolDirectory, RebuildMemory.of(1L << 30), metrics);
    }

    /**
     * The most heap a restore of {@code record} holds: its rebuilder's bound, the files fetched ahead
     * ({@link PrefetchingFiles#heapBound}: no more than the layer's files) and the record itself (read
     * from a blob of {@code recordSize} bytes). The output goes to the spool from the rebuilder's own buffer.
     */
    long heapBound(LayerRecord record, long recordSize) {
        return heapBound(wholePlan(record), record, recordSize);
    }

    private static long heapBound(RebuildPlan plan, LayerRecord record, long recordSize) {
        return plan.heapBound() + PrefetchingFiles.heapBound(record) + RECORD_HEAP_PER_BYTE * recordSize;
    }

    /** Whether {@code plan}'s segments would need more than the whole budget (klauspost zstd layers on a small heap). */
    private boolean overBudget(RebuildPlan plan, LayerRecord record) {
        return heapBound(plan, record, 0) > memory.capacity();
    }

    /**
     * The plan for a whole restore of {@code record}: on the segment pool, unless the segments one
     * restore has under way would need more than the whole budget (each segment holds a window of
     * history and an encoder of its own); then in one piece, so that the budget still bounds what it holds.
     */
    private RebuildPlan wholePlan(LayerRecord record) {
        RebuildPlan plan = rebuilder.plan(record.recipe(), 0);
        return overBudget(plan, record) ? plan.inOnePiece() : plan;
    }

    /** What a whole restore of {@code layer} reserves from the rebuild memory, if it is deduplicated. */
    public Optional<Long> heapBound(Digest layer) throws IOException {
        Optional<LayerState.Deduplicated> state = deduplicated(layer);
        return state.isEmpty() ? Optional.empty() : Optional.of(heapBound(record(state.get()), state.get().recordSize()));
    }

    /** The layer's size, if it is deduplicated. */
    public Optional<Long> size(Digest layer) throws IOException {
        return deduplicated(layer).map(LayerState.Deduplicated::logicalSize);
    }

    /**
     * Streams bytes {@code offset} to {@code offset + length - 1} of the rebuilt layer ({@code length < 0}:
     * to the end), or empty if the layer is not deduplicated.
     */
    public Optional<InputStream> open(Digest layer, long offset, long length) throws IOException {
        Optional<LayerState.Deduplicated> state = deduplicated(layer);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        if (offset >= state.get().logicalSize() || length == 0) {
            return Optional.of(InputStream.nullInputStream());
        }
        long size = state.get().logicalSize();
        while (true) {
            SharedRebuild running = inProgress.get(layer);
            if (running == null) {
                SharedRebuild fresh = new SharedRebuild(spoolDirectory);
                running = inProgress.putIfAbsent(layer, fresh);
                if (running == null) {
                    // Its first reader, taken before the rebuild may start: with no reader it would stop at once.
                    InputStream reader = fresh.reader(offset, length, size);
                    try {
                        start(layer, state.get(), fresh);
                    } catch (IOException | RuntimeException e) {
                        inProgress.remove(layer, fresh);
                        reader.close();
                        throw e;
                    }
                    return Optional.of(reader);
                }
                fresh.discard();
            }
            InputStream reader = running.reader(offset, length, size);
            if (reader != null) {
                return Optional.of(reader);
            }
            inProgress.remove(layer, running);
        }
    }

    /**
     * Bytes {@code offset} on, as {@link #open}, but rebuilt from the last restart point at or before
     * {@code offset} (a resumed pull costs what it resumes), or by joining a rebuild of the whole
     * layer already running here; empty if the layer is not deduplicated or has no such point. The
     * bytes are checked segment by segment against the digests the points record (the layer's own
     * digest needs its start); the last byte waits for that, as with a whole rebuild.
     */
    public Optional<InputStream> openFromRestartPoint(Digest layer, long offset, long length) throws IOException {
        Optional<LayerState.Deduplicated> state = deduplicated(layer);
        if (state.isEmpty() || offset <= 0 || offset >= state.get().logicalSize()) {
            return Optional.empty();
        }
        SharedRebuild running = inProgress.get(layer);
        if (running != null) {
            InputStream reader = running.reader(offset, length, state.get().logicalSize());
            if (reader != null) {
                return Optional.of(reader);
            }
        }
        LayerRecord record = record(state.get());
        RebuildPlan plan = rebuilder.plan(record.recipe(), offset);
        if (plan.startOffset() == 0 || overBudget(plan, record)) {
            return Optional.empty(); // no point, or its segments would not fit the budget: a whole restore, in one piece
        }
        RebuildMemory.Reservation reserved = memory.reserve(heapBound(plan, record, state.get().recordSize()), layer);
        SharedRebuild partial;
        try {
            partial = new SharedRebuild(spoolDirectory, plan.startOffset());
        } catch (IOException | RuntimeException e) {
            reserved.close();
            throw e;
        }
        InputStream reader = partial.reader(offset, length, state.get().logicalSize());
        try {
            rebuilds.execute(() -> {
                try (reserved) {
                    PrefetchingFiles files = new PrefetchingFiles(blobs, record, plan.files(), fetchers);
                    try {
                        run(layer, record, partial, out -> plan.run(files, out), false);
                    } finally {
                        files.close();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            reserved.close();
            reader.close();
            throw new IOException("the registry is shutting down", e);
        }
        resumed.increment();
        return Optional.of(reader);
    }

    /**
     * Starts the rebuild that {@code shared} stands for, once its memory is reserved: this thread
     * waits for that. Files are fetched only once the rebuild runs, so a rebuild waiting for a thread
     * holds no look-ahead. If it cannot start, {@code shared} fails, and so do the readers that joined.
     */
    private void start(Digest layer, LayerState.Deduplicated state, SharedRebuild shared) throws IOException {
        RebuildMemory.Reservation reserved = null;
        try {
            LayerRecord record = record(state);
            RebuildPlan plan = wholePlan(record);
            reserved = memory.reserve(heapBound(plan, record, state.recordSize()), layer);
            RebuildMemory.Reservation held = reserved;
            rebuilds.execute(() -> {
                try (held) {
                    PrefetchingFiles files = new PrefetchingFiles(blobs, record, plan.files(), fetchers);
                    try {
                        run(layer, record, shared, out -> plan.run(files, out), true);
                    } finally {
                        files.close();
                    }
                } finally {
                    inProgress.remove(layer, shared);
                }
            });
        } catch (IOException | RuntimeException e) {
            if (reserved != null) {
                reserved.close();
            }
            IOException cause = e instanceof RejectedExecutionException ? new IOException("the registry is shutting down", e)
                    : e instanceof IOException io ? io : new IOException(e);
            shared.fail(cause);
            throw cause;
        }
    }

    private interface Rebuild {
        void writeTo(OutputStream out) throws IOException;
    }

    private void run(Digest layer, LayerRecord record, SharedRebuild shared, Rebuild rebuild, boolean whole) {
        long start = System.nanoTime();
        // Straight to the spool: the rebuilder hands its output over in buffered pieces already, which a
        // buffer here would only copy once more.
        try {
            rebuild.writeTo(shared.output());
            shared.succeed();
            if (whole) {
                duration.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        } catch (LayerRebuildException e) {
            verificationFailures.increment();
            LOG.error("layer {} did not rebuild byte for byte; the response was cut: {}", layer, e.getMessage());
            shared.fail(e);
            findDamagedFiles(layer, record);
        } catch (IOException | RuntimeException e) {
            LOG.warn("restore of layer {} stopped: {}", layer, e.toString());
            shared.fail(e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * Files are not hashed as a restore reads them (its digest covers them): after a mismatch, each
     * is read again and hashed, off the rebuild threads, so that the log names what is damaged.
     */
    private void findDamagedFiles(Digest layer, LayerRecord record) {
        try {
            fetchers.execute(() -> {
                List<FileRef> damaged = storedFiles.damagedFiles(record);
                if (damaged.isEmpty()) {
                    LOG.error("layer {}: every stored file reads back as its digest says; its recipe or the codec is at fault", layer);
                }
                for (FileRef file : damaged) {
                    LOG.error("layer {}: stored file {} ({} bytes, in pack {}) is damaged", layer, file.sha256(), file.size(),
                            record.location(file).pack());
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.warn("layer {}: the registry is shutting down; its stored files were not checked", layer);
        }
    }

    /** The layer's record with each file where the index places it now (a pack rewrite moves files, not records). */
    private LayerRecord record(LayerState.Deduplicated state) throws IOException {
        return StoredFiles.located(storedFiles.record(state.record()), index);
    }

    private Optional<LayerState.Deduplicated> deduplicated(Digest layer) throws IOException {
        return index.layer(layer).filter(LayerState.Deduplicated.class::isInstance).map(LayerState.Deduplicated.class::cast);
    }
}
