package dev.layerfold.restore;

import dev.layerfold.dedup.codec.FileContentSource;
import dev.layerfold.dedup.codec.HeapFileBody;
import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.store.FrameRun;
import dev.layerfold.dedup.store.LayerRecord;
import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.blob.BlobStore;
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
import java.util.concurrent.Future;

/**
 * Hands a layer's files to the encoder in recipe order while fetching the next ones in parallel,
 * ahead of it: small files in batches (files side by side in one pack come in one ranged read, so a
 * layer of 10,000 small files costs a few reads, not 10,000), each decompressed off the encoder's
 * thread. At most {@link #AHEAD_BYTES} of fetched content wait at once (and what it is read from, no
 * more than as many compressed bytes); large files are decompressed ahead in pieces ({@link StreamedAhead}). The files are not hashed one by one: the rebuild's output is checked
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
     * decompressed, and a large file's decompression stream. Runs ahead are counted by the arrays
     * they hold ({@link #POOLED} bytes for a pooled one), and a spare array was one of those, so the
     * spares stay within it too; a large file streamed ahead counts as its pieces and its stream
     * ({@link StreamedAhead#HEAP_BOUND}).
     */
    static final long HEAP_BOUND = 2 * (AHEAD_BYTES + Math.max(Math.max(FrameRun.MAX_SIZE, FrameRun.SMALL_FILE), StreamedAhead.HEAP_BOUND))
            + (1L << 20);
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

    /**
     * Runs of at least this many bytes (files decompressed, or their frames) are read into arrays of
     * {@link #POOLED} bytes that the restore uses again once the encoder is past them: most of a large
     * layer's runs reach {@link FrameRun#MAX_SIZE}, and an array that size per run and per frame read
     * was zeroed and collected for every byte of the layer (in G1, arrays over half a region are
     * allocated as humongous objects). Smaller runs, a small layer's, get arrays of their size.
     */
    static final int POOLED_FROM = 256 << 10;
    static final int POOLED = (int) FrameRun.MAX_SIZE;

    /**
     * Files fetched ahead: a run of small ones, or one large file streamed ahead.
     *
     * @param contents the run's files one after another, resolved once they were read and decompressed
     */
    private record Batch(FrameRun run, CompletableFuture<byte[]> contents, StreamedAhead streamed, long heapBytes) {

        int files() {
            return streamed != null ? 1 : run.refs().size();
        }
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
    /** Where the next file of the current run starts in its contents. */
    private int currentOffset;
    /** Arrays of {@link #POOLED} bytes no run holds now: at most as many as the runs ahead held at once, and their frames. */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    /**
     * Whether runs use pooled arrays: only for a layer whose files ahead reserve the full
     * {@link #HEAP_BOUND}. A smaller layer reserves only its own files' bytes ({@link #heapBound}),
     * which an array of {@link #POOLED} bytes for a run a fraction of that size would exceed.
     */
    private final boolean pooling;

    PrefetchingFiles(BlobStore blobs, LayerRecord record, List<FileRef> order, Executor fetchers) {
        this.blobs = blobs;
        this.storedFiles = new StoredFiles(blobs);
        this.record = record;
        this.order = order;
        this.fetchers = fetchers;
        this.pooling = heapBound(record) == HEAP_BOUND;
        // The first files are read while the restore is handed to an encoder thread and its encoder is set up.
        scheduleAhead();
    }

    @Override
    public InputStream open(FileRef ref) throws IOException {
        if (current != null && inCurrent < current.files()) {
            return next(ref);
        }
        if (current != null) {
            aheadBytes -= current.heapBytes();
            // The encoder read every file of it to its end before it asked for the next.
            if (current.streamed() == null && current.contents().state() == Future.State.SUCCESS) {
                release(current.contents().resultNow());
            }
            current = null;
        }
        scheduleAhead();
        current = ahead.pollFirst();
        inCurrent = 0;
        currentOffset = 0;
        if (current == null) {
            throw new IllegalStateException("file " + ref + " asked after the last one");
        }
        return next(ref);
    }

    /** Stops the large files streamed ahead that the rebuild did not read to their end (it failed or was abandoned). */
    void close() {
        if (current != null && current.streamed() != null) {
            current.streamed().close();
        }
        for (Batch batch : ahead) {
            if (batch.streamed() != null) {
                batch.streamed().close();
            }
        }
    }

    private InputStream next(FileRef ref) throws IOException {
        if (current.streamed() != null) {
            if (!current.streamed().ref().equals(ref)) {
                throw new IllegalStateException("files asked out of recipe order: " + ref + " where " + current.streamed().ref() + " was next");
            }
            inCurrent++;
            return current.streamed();
        }
        FileRef expected = current.run().refs().get(inCurrent);
        if (!expected.equals(ref)) {
            throw new IllegalStateException("files asked out of recipe order: " + ref + " where " + expected + " was next");
        }
        byte[] contents = await(current.contents());
        inCurrent++;
        int at = currentOffset;
        currentOffset += (int) ref.size();
        return new HeapFileBody(contents, at, (int) ref.size());
    }

    /** Starts fetching the batches of small files after what was scheduled, up to the look-ahead budget. */
    private void scheduleAhead() {
        while (scheduled < order.size() && aheadBytes < AHEAD_BYTES) {
            FileRef first = order.get(scheduled);
            Batch batch = first.size() > FrameRun.SMALL_FILE
                    ? new Batch(null, null, new StreamedAhead(first, () -> storedFiles.openAsStored(first, record.location(first)), fetchers),
                            StreamedAhead.HEAP_BOUND)
                    : batchFrom(scheduled);
            scheduled += batch.files();
            aheadBytes += batch.heapBytes();
            ahead.addLast(batch);
        }
    }

    private Batch batchFrom(int start) {
        FrameRun run = FrameRun.from(record, order, start, FIRST_RUN_BYTES << Math.min(2 * runs++, 20));
        return new Batch(run, CompletableFuture.supplyAsync(() -> fetch(run), fetchers), null, capacity(run.size()));
    }

    private byte[] fetch(FrameRun run) {
        byte[] frames = take(run.length());
        byte[] contents = take(run.size());
        try {
            run.read(blobs, frames, contents);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        release(frames);
        return contents;
    }

    /** What an array for {@code bytes} holds on the heap: the run ahead is counted by it. */
    private long capacity(long bytes) {
        return pooling && bytes >= POOLED_FROM && bytes <= POOLED ? POOLED : bytes;
    }

    /** An array for {@code bytes}: a spare one where they are pooled, else a new one of their size. */
    private byte[] take(long bytes) {
        if (capacity(bytes) == POOLED) {
            synchronized (spare) {
                byte[] array = spare.pollFirst();
                if (array != null) {
                    return array;
                }
            }
            return new byte[POOLED];
        }
        return new byte[Math.toIntExact(bytes)];
    }

    private void release(byte[] array) {
        if (pooling && array != null && array.length == POOLED) {
            synchronized (spare) {
                spare.addFirst(array);
            }
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
