package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.io.LayerRebuildException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * One restore's segments under way on a {@link SegmentPool}, written in the order they were
 * submitted, each as soon as it and those before it are encoded. A segment takes one of the pool's
 * buffers from {@link #reserve} until it is written; while none is free, and while the restore has
 * {@code threads + 1} segments under way, the restore's own thread writes the oldest, encoding it
 * (and later ones nobody has taken) itself rather than wait. Not thread-safe (one restore's thread
 * drives it).
 *
 * @param <T> an encoded segment, as its sink writes it
 */
public final class InOrderSegments<T> {

    /** Writes an encoded segment, in order. */
    public interface Sink<T> {
        void write(T encoded) throws IOException;
    }

    private final SegmentPool pool;
    private final Sink<T> sink;
    private final Deque<FutureTask<T>> inFlight = new ArrayDeque<>();
    private boolean reserved;

    public InOrderSegments(SegmentPool pool, Sink<T> sink) {
        this.pool = pool;
        this.sink = sink;
    }

    /** Takes a buffer for the next segment, writing segments under way while none is free. */
    public void reserve() throws IOException {
        while (!pool.tryReserve()) {
            if (!inFlight.isEmpty()) {
                writeHead();
            } else {
                try {
                    pool.reserve();
                    break;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for a segment buffer");
                }
            }
        }
        reserved = true;
    }

    /** Hands the segment {@link #reserve} took a buffer for to the pool; its buffer comes back when it is written. */
    public void submit(Callable<T> encoding) throws IOException {
        reserved = false;
        FutureTask<T> task = new FutureTask<>(encoding);
        inFlight.add(task);
        try {
            pool.executor().execute(task);
        } catch (RejectedExecutionException e) {
            // The pool is shutting down; writeHead() encodes the segment on this thread.
        }
        while (inFlight.size() >= pool.perRestore()) {
            writeHead();
        }
    }

    /** Writes the segments already encoded at the head of the queue. */
    public void writeFinished() throws IOException {
        while (!inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
            writeHead();
        }
    }

    /** Writes every segment submitted. */
    public void finish() throws IOException {
        while (!inFlight.isEmpty()) {
            writeHead();
        }
    }

    /** Drops the segments under way (the restore failed or its clients left) and gives their buffers back. */
    public void abort() {
        for (FutureTask<T> task : inFlight) {
            task.cancel(false);
            pool.release();
        }
        inFlight.clear();
        if (reserved) {
            reserved = false;
            pool.release();
        }
    }

    /**
     * Writes the oldest segment, encoding it on this thread if no pool thread has taken it yet; while a
     * pool thread encodes it, this thread encodes later segments nobody has taken rather than wait.
     */
    private void writeHead() throws IOException {
        FutureTask<T> task = inFlight.removeFirst();
        task.run();
        for (FutureTask<T> later : inFlight) {
            if (task.isDone()) {
                break;
            }
            later.run();
        }
        T encoded;
        try {
            encoded = task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a segment");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io
                    : new LayerRebuildException("segment could not be encoded from its restart point: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.release();
        }
        sink.write(encoded);
    }
}
