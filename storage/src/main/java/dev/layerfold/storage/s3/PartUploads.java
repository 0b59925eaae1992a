package dev.layerfold.storage.s3;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The parts of one append uploading in the background, at most {@code limit} at a time, their
 * results delivered in part order. A part whose upload finished lends its buffer to a later part of
 * the same append, so a large push allocates {@code limit + 1} part buffers, not one per part. Closing
 * waits for every upload still running, so none outlives the append that started it (a failed append
 * aborts or overwrites them afterwards).
 */
final class PartUploads implements AutoCloseable {

    @FunctionalInterface
    interface Upload {
        String run() throws IOException;
    }

    /**
     * Platform threads: a socket write that would block parks a virtual thread and wakes it through the
     * JDK's poller, which cost the registry's request threads 16-27% more CPU per MB. Idle threads end
     * after a minute.
     */
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("s3-part-upload-", 0).daemon().factory());

    private record Pending(Future<String> etag, PartBuffer part) {
    }

    private final int limit;
    private final Deque<Pending> inFlight = new ArrayDeque<>();
    private final Deque<PartBuffer> spare = new ArrayDeque<>();

    PartUploads(int limit) {
        this.limit = limit;
    }

    /** Starts uploading {@code part}, first waiting for the oldest upload if {@code limit} are running. */
    void submit(PartBuffer part, Upload upload, Consumer<String> etags) throws IOException {
        if (inFlight.size() == limit) {
            etags.accept(await(inFlight.removeFirst()));
        }
        inFlight.addLast(new Pending(THREADS.submit(upload::run), part));
    }

    /** An empty buffer for the next part: one whose upload is done, or a new one. */
    PartBuffer nextPart(int partSize) {
        PartBuffer recycled = spare.pollFirst();
        return recycled != null ? recycled.clear() : PartBuffer.whole(partSize);
    }

    /** Waits for every upload, delivering their ETags in part order. */
    void awaitAll(Consumer<String> etags) throws IOException {
        while (!inFlight.isEmpty()) {
            etags.accept(await(inFlight.removeFirst()));
        }
    }

    private String await(Pending pending) throws IOException {
        String etag = result(pending.etag());
        spare.addLast(pending.part());
        return etag;
    }

    private static String result(Future<String> upload) throws IOException {
        try {
            return upload.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while uploading a part");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    /** Waits for the uploads a failure left running; their outcome no longer matters. */
    @Override
    public void close() {
        boolean interrupted = false;
        for (Pending pending : inFlight) {
            while (true) {
                try {
                    pending.etag().get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException | CancellationException e) {
                    break;
                }
            }
        }
        inFlight.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
