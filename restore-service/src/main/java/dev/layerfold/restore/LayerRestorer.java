package dev.layerfold.restore;

import dev.layerfold.dedup.codec.LayerRebuildException;
import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds deduplicated layers for clients, streaming: the encoder runs on a bounded pool of rebuild
 * threads (a rebuild is CPU work; more at once than cores only slows each), the files it needs are
 * fetched in parallel ahead of it, and the bytes go out through a {@link RestorePipe} as they are
 * made, so the first bytes leave before the last file is read. The digest is checked as the bytes
 * pass; the pipe holds back the last chunk until it matched.
 */
public final class LayerRestorer {

    private static final Logger LOG = LoggerFactory.getLogger(LayerRestorer.class);

    private final BlobStore blobs;
    private final DedupIndex index;
    private final LayerRebuilder rebuilder;
    private final ExecutorService rebuilds;
    private final ExecutorService fetchers;
    private final StoredFiles storedFiles;
    private final Timer duration;
    private final Counter verificationFailures;

    /**
     * @param rebuilds threads that run encoders, bounded (typically one per core)
     * @param fetchers threads that read and decompress stored files (I/O bound: more of them than cores)
     */
    public LayerRestorer(BlobStore blobs, DedupIndex index, LayerRebuilder rebuilder, ExecutorService rebuilds,
                         ExecutorService fetchers, MeterRegistry metrics) {
        this.blobs = blobs;
        this.index = index;
        this.rebuilder = rebuilder;
        this.rebuilds = rebuilds;
        this.fetchers = fetchers;
        this.storedFiles = new StoredFiles(blobs);
        this.duration = Timer.builder("layerfold.restore.duration").description("time to rebuild a deduplicated layer for a client")
                .publishPercentileHistogram().register(metrics);
        this.verificationFailures = Counter.builder("layerfold.restore.verification.failures")
                .description("rebuilt layers whose bytes did not match their digest (the response was cut); alert on any")
                .register(metrics);
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
        LayerRecord record = LayerRecord.read(new ByteArrayInputStream(storedFiles.readObject(state.get().record())));
        RestorePipe pipe = new RestorePipe();
        PrefetchingFiles files = new PrefetchingFiles(blobs, record, LayerRecord.filesInOrder(record.recipe()), fetchers);
        try {
            rebuilds.execute(() -> rebuild(layer, record, files, pipe));
        } catch (RejectedExecutionException e) {
            throw new IOException("the registry is shutting down", e);
        }
        return Optional.of(pipe.input(offset, length));
    }

    private void rebuild(Digest layer, LayerRecord record, PrefetchingFiles files, RestorePipe pipe) {
        long start = System.nanoTime();
        try {
            var out = pipe.output();
            rebuilder.rebuild(record.recipe(), files, out);
            out.flush();
            pipe.succeed();
            duration.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        } catch (LayerRebuildException e) {
            verificationFailures.increment();
            LOG.error("layer {} did not rebuild byte for byte; the response was cut: {}", layer, e.getMessage());
            pipe.fail(e);
        } catch (IOException | RuntimeException e) {
            LOG.warn("restore of layer {} stopped: {}", layer, e.toString());
            pipe.fail(e instanceof IOException io ? io : new IOException(e));
        }
    }

    private Optional<LayerState.Deduplicated> deduplicated(Digest layer) throws IOException {
        return index.layer(layer).filter(LayerState.Deduplicated.class::isInstance).map(LayerState.Deduplicated.class::cast);
    }
}
