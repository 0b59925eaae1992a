package dev.layerfold.restore;

import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.FileRef;
import dev.layerfold.dedup.store.FrameRun;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.blob.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * Hands a layer's files to the encoder in recipe order while fetching the next ones in parallel,
 * ahead of it: small files in batches (files side by side in one pack come in one ranged read, so a
 * layer of 10,000 small files costs a few reads, not 10,000), each decompressed off the encoder's
 * thread. At most {@link #AHEAD_BYTES} of fetched content wait at once (and what it is read from, no
 * more than as many compressed bytes); large files are streamed when the encoder reaches them. The files are not hashed one by one: the rebuild's output is checked
 * against the layer's (or a segment's) digest, which covers every byte of them, and a file hash on
 * top cost a 1 MB layer's restore about a tenth of its CPU ({@link StoredFiles#damagedFiles} names
 * the file once that check failed).
 */
final class PrefetchingFiles implements FileContentSource {

    /**
     * Enough to keep the encoder fed: it takes a few milliseconds per MiB, a ranged read of a pack
     * tens of milliseconds, and the runs ahead are read in parallel. Was 16 MiB, which made a
     * restore's look-ahead most of its heap (issue 26).
     */
    static final long AHEAD_BYTES = 6L << 20;
    /**
     * The most heap the files ahead hold: {@link #AHEAD_BYTES} plus the run scheduled past it (whose
     * first file may be as large as a small file gets), each run's compressed bytes while it is
     * decompressed, and a large file's decompression stream.
     */
    static final long HEAP_BOUND = 2 * (AHEAD_BYTES + Math.max(FrameRun.MAX_SIZE, FrameRun.SMALL_FILE)) + (1L << 20);
    /** A large file's decompression stream, and the buffers of the run being read. */
    private static final long STREAM_BOUND = 1L << 20;

    /**
     * The most heap the files ahead hold for a rebuild of {@code record}: {@link #HEAP_BOUND}, or less
     * when the layer's files are fewer bytes than that, as they can hold no more than all of them at
     * once, decompressed and as stored. A small layer reserved the fixed 21 MiB before, so on a small
     * heap's rebuild memory a few restores of small layers at once queued behind each other.
     */
    static long heapBound(LayerRecord record) {
        long content = 0;
        long stored = 0;
        for (FileRef ref : LayerRecord.filesInOrder(record.recipe())) {
            content += ref.size();
            stored += record.location(ref).length();
            if (content + stored >= HEAP_BOUND) {
                return HEAP_BOUND;
            }
        }
        return Math.min(HEAP_BOUND, content + stored + STREAM_BOUND);
    }
    /**
     * The first run's compressed bytes at most; each next run may be four times as large, up to
     * {@link FrameRun#MAX_BYTES}. The encoder waits for the whole first run to be read, decompressed
     * and checked: runs of 4 MiB from the start held back a 1 MB layer's encoder until all its files
     * were in, and a 20 MB layer's for ~12 MB of them.
     */
    static final long FIRST_RUN_BYTES = 32L << 10;

    private record Batch(FrameRun run, CompletableFuture<List<byte[]>> contents) {
    }

    private final BlobStore blobs;
    private final StoredFiles storedFiles;
    private final LayerRecord record;
    private final List<FileRef> order;
    private final Executor fetchers;
    private final Deque<Batch> ahead = new ArrayDeque<>();
    private int scheduled;
    private int runs;
    private long aheadBytes;
    private Batch current;
    private int inCurrent;

    PrefetchingFiles(BlobStore blobs, LayerRecord record, List<FileRef> order, Executor fetchers) {
        this.blobs = blobs;
        this.storedFiles = new StoredFiles(blobs);
        this.record = record;
        this.order = order;
        this.fetchers = fetchers;
        // The first files are read while the restore is handed to an encoder thread and its encoder is set up.
        scheduleAhead();
    }

    @Override
    public InputStream open(FileRef ref) throws IOException {
        if (current != null && inCurrent < current.run().refs().size()) {
            return next(ref);
        }
        if (current != null) {
            aheadBytes -= current.run().size();
            current = null;
        }
        scheduleAhead();
        current = ahead.pollFirst();
        inCurrent = 0;
        if (current == null) {
            // A large file: streamed as the encoder reads it.
            scheduled++;
            return storedFiles.openAsStored(ref, record.location(ref));
        }
        return next(ref);
    }

    private InputStream next(FileRef ref) throws IOException {
        FileRef expected = current.run().refs().get(inCurrent);
        if (!expected.equals(ref)) {
            throw new IllegalStateException("files asked out of recipe order: " + ref + " where " + expected + " was next");
        }
        byte[] content = await(current.contents()).get(inCurrent++);
        return new ByteArrayInputStream(content);
    }

    /** Starts fetching the batches of small files after what was scheduled, up to the look-ahead budget. */
    private void scheduleAhead() {
        while (scheduled < order.size() && aheadBytes < AHEAD_BYTES) {
            FileRef first = order.get(scheduled);
            if (first.size() > FrameRun.SMALL_FILE) {
                if (ahead.isEmpty()) {
                    return;
                }
                break;
            }
            Batch batch = batchFrom(scheduled);
            scheduled += batch.run().refs().size();
            aheadBytes += batch.run().size();
            ahead.addLast(batch);
        }
    }

    private Batch batchFrom(int start) {
        FrameRun run = FrameRun.from(record, order, start, FIRST_RUN_BYTES << Math.min(2 * runs++, 20));
        return new Batch(run, CompletableFuture.supplyAsync(() -> fetch(run), fetchers));
    }

    private List<byte[]> fetch(FrameRun run) {
        try {
            return run.read(blobs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while fetching stored files");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw new IOException("fetching stored files failed: " + e.getCause(), e.getCause());
        }
    }
}
