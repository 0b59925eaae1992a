package dev.layerfold.dedup.codec.restart;

import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

/**
 * The threads that encode segments, shared by every restore in the process, and the bound on
 * segments buffered at once across all of them (each holds its input and output, a few MB): so one
 * large pull neither starves the others of threads nor runs the heap out. A restore never has more
 * than {@code threads + 1} segments under way, and it encodes a segment itself rather than wait for a
 * thread, so restores running on the same threads cannot block each other.
 */
public final class SegmentPool {

    private final Executor executor;
    private final int threads;
    private final Semaphore buffers;

    /**
     * @param executor runs segment encodings; at most {@code threads} at a time
     * @param threads  how many segments may be encoded at once (typically the cores)
     */
    public SegmentPool(Executor executor, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a segment pool needs at least one thread, got " + threads);
        }
        this.executor = executor;
        this.threads = threads;
        this.buffers = new Semaphore(2 * threads + 1);
    }

    Executor executor() {
        return executor;
    }

    /**
     * Whether segments run side by side. On one thread a whole rebuild gains nothing from its restart
     * points and would pay for them (a state rebuilt per segment, each segment's output buffered,
     * hashed and copied), so it encodes in one piece; a rebuild that starts at a point still uses them.
     */
    public boolean parallel() {
        return threads > 1;
    }

    /** The most segments one restore has under way at once. */
    public int perRestore() {
        return threads + 1;
    }

    boolean tryReserve() {
        return buffers.tryAcquire();
    }

    void reserve() throws InterruptedException {
        buffers.acquire();
    }

    void release() {
        buffers.release();
    }
}
