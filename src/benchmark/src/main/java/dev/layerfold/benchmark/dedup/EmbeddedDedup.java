package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.HeapFileBody;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.pipeline.DedupLimits;
import dev.layerfold.dedup.pipeline.DedupOutcome;
import dev.layerfold.dedup.pipeline.DedupSettings;
import dev.layerfold.dedup.pipeline.IntactCopyPolicy;
import dev.layerfold.dedup.pipeline.LayerDeduplicator;
import dev.layerfold.dedup.pipeline.RebuildMemory;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.restore.LayerRestorer;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * The embedded backend (blobs on the file system, metadata in SQLite) in a directory of its own, with
 * the dedup pipeline and the restore service over it, configured as the server configures them: the
 * benchmark calls them directly, so what it measures is theirs and not HTTP's.
 */
final class EmbeddedDedup implements AutoCloseable {

    private static final String WORKER = "benchmark-worker";
    /** The budget the server derives for a heap of 1 GiB (three eighths of it), unless the benchmark sets another. */
    private static final long REBUILD_MEMORY = Long.getLong("layerfold.benchmark.rebuild-memory", 384L << 20);
    /** The name prefix of the threads that run restores and their segments' encoders. */
    static final String RESTORE_THREADS = "restore-encoder-";

    private final Path dir;
    private final FilesystemBlobStore blobs;
    private final SqliteMetadataStore metadata;
    private final LayerRebuilder rebuilder = new LayerRebuilder(StandardEncoders.factory());
    private final StoredFiles storedFiles;
    private final LayerDeduplicator deduplicator;
    private final ExecutorService encoders;
    private final ExecutorService fetchers;
    private final LayerRestorer restorer;

    private EmbeddedDedup(Path dir) throws IOException {
        this(dir, Runtime.getRuntime().availableProcessors());
    }

    private EmbeddedDedup(Path dir, int restoreThreads) throws IOException {
        this.dir = dir;
        this.blobs = new FilesystemBlobStore(dir.resolve("data"));
        this.metadata = new SqliteMetadataStore(dir.resolve("metadata.db"));
        DedupSettings settings = new DedupSettings(dir.resolve("scratch"), 3, 64L << 20, Duration.ofMinutes(15), DedupLimits.DEFAULT);
        this.deduplicator = new LayerDeduplicator(blobs, index(), metadata.gcIndex(), new LayerSplitter(StandardEncoders.identifier()), rebuilder, settings, IntactCopyPolicy.NO_COPIES);
        this.storedFiles = new StoredFiles(blobs);
        this.encoders = Executors.newFixedThreadPool(restoreThreads, Thread.ofPlatform().daemon().name(RESTORE_THREADS, 0).factory());
        this.fetchers = Executors.newFixedThreadPool(16, Thread.ofPlatform().daemon().name("restore-fetch-", 0).factory());
        // Configured as the server configures it: segments of layers with restart points on the restore pool.
        LayerRebuilder restoring = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(encoders, restoreThreads));
        this.restorer = new LayerRestorer(blobs, index(), restoring, encoders, fetchers, dir.resolve("restore-spool"),
                RebuildMemory.of(REBUILD_MEMORY), new SimpleMeterRegistry());
    }

    /** A fresh, empty backend in a new directory below {@code work}. */
    static EmbeddedDedup create(Path work) throws IOException {
        return new EmbeddedDedup(Files.createTempDirectory(work, "embedded-"));
    }

    /** The same, restoring on {@code restoreThreads} threads. */
    static EmbeddedDedup create(Path work, int restoreThreads) throws IOException {
        return new EmbeddedDedup(Files.createTempDirectory(work, "embedded-"), restoreThreads);
    }

    DedupIndex index() {
        return metadata.dedupIndex();
    }

    BlobStore blobs() {
        return blobs;
    }

    LayerRestorer restorer() {
        return restorer;
    }

    /** Stores {@code blob} as a push does (upload, then publish under its digest). */
    void push(ProducedLayer layer) throws IOException {
        String upload = "push-" + layer.digest().hex();
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream(layer.blob()));
        blobs.publish(upload, layer.digest());
    }

    /** Deduplicates a pushed layer on the calling thread; fails unless it came out deduplicated. */
    DedupOutcome deduplicate(ProducedLayer layer) throws IOException {
        DedupOutcome outcome = deduplicator.deduplicate(layer.task(), WORKER);
        if (outcome.kind() != DedupOutcome.Kind.DEDUPLICATED) {
            throw new IllegalStateException(layer + " was not deduplicated: " + outcome);
        }
        return outcome;
    }

    /**
     * Rebuilds a deduplicated layer on the calling thread from what was stored, into nothing, as the
     * pipeline's proof does: every file read back from its pack, the encoder, the digest.
     */
    void rebuildFromStore(Digest layer) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) index().layer(layer).orElseThrow();
        LayerRecord record = storedFiles.record(state.record());
        rebuilder.rebuild(record.recipe(), storedFiles.forProof(record), OutputStream.nullOutputStream());
    }

    /**
     * As {@link #rebuildFromStore}, but the way the pipeline's proof now runs: members and frames with restart
     * points encoded in pieces from rebuilt states, layers of many members or frames in units, finding
     * the points; returns the recipe with the points it found.
     */
    Recipe proveFromStore(Digest layer) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) index().layer(layer).orElseThrow();
        LayerRecord record = storedFiles.record(state.record());
        return rebuilder.rebuildFindingRestartPoints(record.recipe(), storedFiles.forProof(record), OutputStream.nullOutputStream());
    }

    /**
     * The restore's ceiling on {@code threads} threads: the layer's files read into memory once, then
     * each {@link Runnable#run} rebuilds the layer from them into nothing, the segments of a layer with
     * restart points on {@code threads} threads as a restore runs them. What a restore adds to this is
     * fetching, decompressing and handing over the files, and the output's digest.
     */
    Runnable rebuildInMemory(Digest layer, int threads) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) index().layer(layer).orElseThrow();
        LayerRecord record = storedFiles.record(state.record());
        Map<FileRef, byte[]> bodies = new HashMap<>();
        FileContentSource stored = storedFiles.of(record);
        for (FileRef ref : LayerRecord.filesInOrder(record.recipe())) {
            if (!bodies.containsKey(ref)) {
                try (InputStream body = stored.open(ref)) {
                    bodies.put(ref, body.readAllBytes());
                }
            }
        }
        LayerRebuilder segmented = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(encoders, threads));
        return () -> {
            try {
                segmented.rebuild(record.recipe(), ref -> new HeapFileBody(bodies.get(ref)), OutputStream.nullOutputStream());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** Opens the whole rebuilt layer. */
    InputStream restore(Digest layer) throws IOException {
        return restorer.open(layer, 0, -1).orElseThrow(() -> new IllegalStateException(layer + " is not deduplicated"));
    }

    /**
     * Opens the layer from {@code offset} to its end as a resumed pull does: from the restart point before it, or where it has
     * none (libzstd -19's first job, 32 MiB of tar, may hold all but the last MB), from a whole rebuild.
     */
    InputStream resume(Digest layer, long offset) throws IOException {
        Optional<InputStream> resumed = restorer.openFromRestartPoint(layer, offset, -1);
        if (resumed.isPresent()) {
            return resumed.get();
        }
        InputStream whole = restore(layer);
        whole.skipNBytes(offset);
        return whole;
    }

    /** Every file the blob store holds (packs, layer records, intact blobs). */
    List<Path> storedFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("data").resolve("blobs"))) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    /** Their bytes together. */
    long storedBytes() throws IOException {
        return WorkDirectory.bytesUnder(dir.resolve("data").resolve("blobs"));
    }

    @Override
    public void close() throws IOException {
        encoders.shutdownNow();
        fetchers.shutdownNow();
        metadata.close();
        WorkDirectory.deleteRecursively(dir);
    }
}
