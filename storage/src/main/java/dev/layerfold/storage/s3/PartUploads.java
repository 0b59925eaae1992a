package dev.layerfold.storage.s3;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The parts of one append uploading in the background, at most {@code limit} at a time, their
 * results delivered in part order. Closing waits for every upload still running, so none outlives
 * the append that started it (a failed append aborts or overwrites them afterwards).
 */
final class PartUploads implements AutoCloseable {

    @FunctionalInterface
    interface Upload {
        String run() throws IOException;
    }

    private final int limit;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Deque<Future<String>> inFlight = new ArrayDeque<>();

    PartUploads(int limit) {
        this.limit = limit;
    }

    /** Starts an upload, first waiting for the oldest one if {@code limit} are running. */
    void submit(Upload upload, Consumer<String> etags) throws IOException {
        if (inFlight.size() == limit) {
            etags.accept(await(inFlight.removeFirst()));
        }
        inFlight.addLast(executor.submit(upload::run));
    }

    /** Waits for every upload, delivering their ETags in part order. */
    void awaitAll(Consumer<String> etags) throws IOException {
        while (!inFlight.isEmpty()) {
            etags.accept(await(inFlight.removeFirst()));
        }
    }

    private static String await(Future<String> upload) throws IOException {
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

    @Override
    public void close() {
        executor.close();
    }
}
