package dev.layerfold.registry.upload;

import dev.layerfold.registry.api.MemoryBudget;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Feeds an upload's bytes to its running hashes on another core, so a push takes as long as the
 * slower of hashing and I/O rather than their sum. Without SHA instructions a core hashes SHA-256 at
 * about 300 MB/s, slower than loopback, a LAN or a local disk move bytes, so hashing on the request
 * thread would set the pace of every push.
 *
 * <p>Bytes are copied into a few buffers of this class's own (the caller reuses its buffer), handed to
 * the hashing pool in order, and returned once hashed. When all of them wait to be hashed the caller
 * waits too, so a fast client never makes an upload hold more than {@value #BUFFERS} buffers. The
 * buffers start small and grow as they fill, so a client that sends slowly holds 4 KiB, not 768; each is
 * reserved from the {@link MemoryBudget} before it is allocated. Not thread-safe: one request feeds one
 * instance.
 */
final class HashAhead implements AutoCloseable {

    private static final int BUFFER_SIZE = 256 * 1024;
    private static final int FIRST_BUFFER_SIZE = 4 * 1024;
    private static final int BUFFERS = 3;

    /** Hashing is CPU work: one thread per core serves every upload of the process. */
    private static final ExecutorService POOL = Executors.newFixedThreadPool(
            Runtime.getRuntime().availableProcessors(), Thread.ofPlatform().name("upload-hashing-", 0).daemon().factory());

    private final List<RunningHash> hashes;
    private final MemoryBudget memory;
    private final List<MemoryBudget.Reservation> reserved = new ArrayList<>();
    private int nextBufferSize = FIRST_BUFFER_SIZE;
    private final Semaphore freeBuffers = new Semaphore(BUFFERS);
    /** Hashed buffers, reused; guarded by itself, as pool threads give them back. */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>(BUFFERS);
    private byte[] filling;
    private int filled;
    private CompletableFuture<Void> hashed = CompletableFuture.completedFuture(null);

    HashAhead(List<RunningHash> hashes, MemoryBudget memory) {
        this.hashes = List.copyOf(hashes);
        this.memory = memory;
    }

    void update(byte[] bytes, int offset, int length) throws InterruptedIOException {
        while (length > 0) {
            if (filling == null) {
                filling = takeBuffer();
            }
            int copied = Math.min(length, filling.length - filled);
            System.arraycopy(bytes, offset, filling, filled, copied);
            filled += copied;
            offset += copied;
            length -= copied;
            if (filled == filling.length) {
                handOver();
            }
        }
    }

    /** Waits until every byte given so far is in the hashes. */
    void await() throws IOException {
        if (filled > 0) {
            if (hashed.isDone()) {
                hashAll(filling, filled); // a small blob: not worth a trip to another thread
                filled = 0;
            } else {
                handOver();
            }
        }
        try {
            hashed.join();
        } catch (CompletionException e) {
            throw new IOException("hashing the upload failed", e.getCause());
        }
    }

    /** Lets hashing still under way finish before the hashes are dropped or used again. */
    @Override
    public void close() {
        try {
            hashed.join();
        } catch (CompletionException e) {
            // already reported by await, or the hashes are being discarded with the failed append
        } finally {
            reserved.forEach(MemoryBudget.Reservation::close);
        }
    }

    private void handOver() {
        byte[] chunk = filling;
        int length = filled;
        filling = null;
        filled = 0;
        nextBufferSize = Math.min(BUFFER_SIZE, nextBufferSize * 4);
        hashed = hashed.thenRunAsync(() -> {
            try {
                hashAll(chunk, length);
            } finally {
                giveBack(chunk);
            }
        }, POOL);
    }

    private void hashAll(byte[] chunk, int length) {
        for (RunningHash hash : hashes) {
            hash.update(chunk, 0, length);
        }
    }

    private byte[] takeBuffer() throws InterruptedIOException {
        try {
            freeBuffers.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the upload's bytes were being hashed");
        }
        byte[] buffer;
        synchronized (spare) {
            buffer = spare.poll();
        }
        if (buffer != null && buffer.length >= nextBufferSize) {
            return buffer;
        }
        try {
            reserved.add(memory.reserve(nextBufferSize));
        } catch (InterruptedIOException | RuntimeException e) {
            freeBuffers.release();
            throw e;
        }
        return new byte[nextBufferSize]; // a smaller spare one is dropped; its reservation ends with close
    }

    private void giveBack(byte[] buffer) {
        synchronized (spare) {
            spare.push(buffer);
        }
        freeBuffers.release();
    }
}
