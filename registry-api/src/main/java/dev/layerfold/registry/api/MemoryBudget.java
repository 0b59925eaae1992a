package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The heap that request data may occupy at once: manifest bodies while they are read and parsed, the
 * buffers an upload's bytes pass through. A request reserves before it allocates and releases when it is
 * done. Over the budget it waits its turn (first come, first served), and a request still waiting after
 * ten seconds is answered 429 TOOMANYREQUESTS with {@code Retry-After}, which clients retry. So a burst
 * of large requests slows down instead of running the process out of memory.
 *
 * <p>A waiting request holds heap too, outside the budget: its thread's stack and its own objects
 * ({@link #WAITER_HEAP}). So waiters are limited to as many as fit in half the budget again; past that a
 * request is answered 429 at once. Tomcat's buffers of a request in progress are not in the budget: they
 * are bounded by the number of connections, which is sized by the heap ({@code ConnectionBuffers}).
 */
@Component
public final class MemoryBudget {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int RETRY_AFTER_SECONDS = 2;

    /**
     * What a request with a body holds besides its data and Tomcat's buffers while it runs or waits: the
     * stack of its virtual thread (8 KiB in a class histogram of 2,000 slow uploads) and its objects.
     */
    public static final long WAITER_HEAP = 16 * 1024;

    private final Duration wait;
    private final long capacityKib;
    private final Semaphore freeKib;
    private final int maxWaiters;
    private final AtomicInteger waiters = new AtomicInteger();

    @Autowired
    MemoryBudget(RegistryApiProperties properties) {
        this(properties.requestMemory().toBytes());
    }

    public MemoryBudget(long capacityBytes) {
        this(capacityBytes, WAIT);
    }

    MemoryBudget(long capacityBytes, Duration wait) {
        this.wait = wait;
        this.capacityKib = Math.clamp(capacityBytes / 1024, 1, Integer.MAX_VALUE);
        this.freeKib = new Semaphore((int) capacityKib, true);
        this.maxWaiters = (int) Math.clamp(capacityKib / 2 / (WAITER_HEAP / 1024), 1, Integer.MAX_VALUE);
    }

    /**
     * Reserves {@code bytes} (at most the whole budget), waiting while other requests hold it.
     *
     * @throws RegistryException TOOMANYREQUESTS if the budget stayed full for {@link #WAIT}
     */
    public Reservation reserve(long bytes) throws InterruptedIOException {
        int kib = (int) Math.clamp((bytes + 1023) / 1024, 1, capacityKib);
        try {
            if (freeKib.tryAcquire(kib, 0, TimeUnit.MILLISECONDS)) { // unlike tryAcquire(int), keeps the queue's order
                return new Reservation(kib);
            }
            if (waiters.incrementAndGet() > maxWaiters) {
                waiters.decrementAndGet();
                throw full(bytes);
            }
            try {
                if (!freeKib.tryAcquire(kib, wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw full(bytes);
                }
            } finally {
                waiters.decrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for request memory");
        }
        return new Reservation(kib);
    }

    private static RegistryException full(long bytes) {
        return RegistryException.of(ErrorCode.TOOMANYREQUESTS, "the registry is holding as much request data"
                        + " in memory as it may (layerfold.api.request-memory); retry after "
                        + RETRY_AFTER_SECONDS + " seconds", Map.of("bytes", bytes))
                .withHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
    }

    /** Requests waiting for their turn. */
    int waiting() {
        return waiters.get();
    }

    /** Bytes not reserved at the moment. */
    long available() {
        return freeKib.availablePermits() * 1024L;
    }

    /** Reserved memory, given back once on close. */
    public final class Reservation implements AutoCloseable {
        private final int kib;
        private final AtomicBoolean released = new AtomicBoolean();

        private Reservation(int kib) {
            this.kib = kib;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                freeKib.release(kib);
            }
        }
    }
}
