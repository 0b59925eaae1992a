package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.ContentBusyException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heap that layer rebuilds may hold at once: client restores (whole, or from a restart point for a
 * {@code Range}), the predictor's rebuilds ahead and rehydrations, which all go through the restore
 * service, and the dedup worker's proof. A rebuild reserves its bound ({@code RebuildPlan.heapBound}
 * plus what its caller holds) before it allocates anything, and gives it back when it ends.
 *
 * <p>Over the budget a rebuild waits its turn, first come first served (a large reservation at the head
 * of the queue is not overtaken by smaller ones, so it cannot starve); a client whose restore waits
 * keeps its connection. A restore still waiting after {@code longestWait} gets
 * {@link ContentBusyException}, which the API answers 429 with {@code Retry-After}. A reservation larger
 * than the whole budget is cut to it: that rebuild runs alone. So however many pulls arrive and however
 * the sizes and threads are configured, rebuilds never hold more heap than the budget.
 */
public final class RebuildMemory {

    private static final Logger LOG = LoggerFactory.getLogger(RebuildMemory.class);
    /** At most one "waiting for memory" line per this interval; the metrics count every wait. */
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final long capacityKib;
    private final Semaphore freeKib;
    private final Duration longestWait;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong lastLogNanos = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);
    private final Timer waits;
    private final Counter refused;

    /**
     * @param capacityBytes the heap rebuilds may hold at once
     * @param longestWait   how long a restore waits for its turn before it is refused (429)
     */
    public RebuildMemory(long capacityBytes, Duration longestWait, MeterRegistry metrics) {
        if (capacityBytes < 1 << 20) {
            throw new IllegalArgumentException("rebuild memory must be at least 1 MiB, got " + capacityBytes + " bytes");
        }
        this.capacityKib = Math.min(capacityBytes / 1024, Integer.MAX_VALUE);
        this.freeKib = new Semaphore((int) capacityKib, true);
        this.longestWait = longestWait;
        Gauge.builder("layerfold.restore.memory.capacity", () -> capacityKib * 1024.0).baseUnit("bytes")
                .description("heap that layer rebuilds may hold at once (layerfold.dedup.restore-memory)").register(metrics);
        Gauge.builder("layerfold.restore.memory.reserved", () -> (capacityKib - freeKib.availablePermits()) * 1024.0).baseUnit("bytes")
                .description("heap reserved by the layer rebuilds running now").register(metrics);
        Gauge.builder("layerfold.restore.queued", freeKib::getQueueLength)
                .description("rebuilds waiting for memory: pulls of deduplicated layers wait here while the budget is spent").register(metrics);
        Gauge.builder("layerfold.restore.running", running::get).description("layer rebuilds holding memory now").register(metrics);
        this.waits = Timer.builder("layerfold.restore.queue.wait").description("how long rebuilds waited for memory before they started")
                .publishPercentileHistogram().register(metrics);
        this.refused = Counter.builder("layerfold.restore.refused")
                .description("restores refused with 429 after waiting the longest wait for memory").register(metrics);
    }

    /** A budget for tests and tools: {@code capacityBytes}, no metrics kept. */
    public static RebuildMemory of(long capacityBytes) {
        return new RebuildMemory(capacityBytes, Duration.ofDays(1), new SimpleMeterRegistry());
    }

    /** The budget's bytes. */
    public long capacity() {
        return capacityKib * 1024;
    }

    /**
     * Reserves {@code bytes} (at most the whole budget) for a rebuild of {@code layer}, waiting while
     * other rebuilds hold the budget.
     *
     * @throws ContentBusyException   if it stayed spent for the longest wait
     * @throws InterruptedIOException if the thread was interrupted while waiting
     */
    public Reservation reserve(long bytes, Digest layer) throws ContentBusyException, InterruptedIOException {
        int kib = (int) Math.clamp((bytes + 1023) / 1024, 1, capacityKib);
        long start = System.nanoTime();
        try {
            // tryAcquire with a timeout, unlike tryAcquire(int), keeps the queue's order.
            if (!freeKib.tryAcquire(kib, 0, TimeUnit.MILLISECONDS)) {
                logWait(layer, kib, freeKib.getQueueLength() + 1);
                if (!freeKib.tryAcquire(kib, longestWait.toMillis(), TimeUnit.MILLISECONDS)) {
                    refused.increment();
                    throw new ContentBusyException("the registry is rebuilding as many deduplicated layers as its memory allows"
                            + " (layerfold.dedup.restore-memory, " + capacity() / (1 << 20) + " MiB) and layer " + layer
                            + " waited " + longestWait.toSeconds() + " s for its turn; retry after " + RETRY_AFTER.toSeconds()
                            + " s", RETRY_AFTER);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for rebuild memory");
        }
        waits.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        running.incrementAndGet();
        return new Reservation(kib);
    }

    private void logWait(Digest layer, int kib, int waitingNow) {
        long now = System.nanoTime();
        long last = lastLogNanos.get();
        if (now - last >= LOG_EVERY_NANOS && lastLogNanos.compareAndSet(last, now)) {
            LOG.info("rebuild of layer {} waits for memory: {} rebuilds hold {} of {} MiB (layerfold.dedup.restore-memory), {} waiting;"
                            + " it needs {} MiB", layer, running.get(), (capacityKib - freeKib.availablePermits()) / 1024, capacityKib / 1024,
                    waitingNow, (kib + 1023) / 1024);
        }
    }

    /** Rebuilds waiting for memory now (an estimate, as the semaphore's queue length is). */
    public int waiting() {
        return freeKib.getQueueLength();
    }

    /** Bytes not reserved now. */
    public long available() {
        return freeKib.availablePermits() * 1024L;
    }

    /** Memory held by one rebuild, given back once on close. */
    public final class Reservation implements AutoCloseable {
        private final int kib;
        private final AtomicBoolean released = new AtomicBoolean();

        private Reservation(int kib) {
            this.kib = kib;
        }

        /** The bytes reserved. */
        public long bytes() {
            return kib * 1024L;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                running.decrementAndGet();
                freeKib.release(kib);
            }
        }
    }
}
