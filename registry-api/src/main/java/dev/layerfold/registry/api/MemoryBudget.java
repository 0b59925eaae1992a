package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The heap that request data may occupy at once: manifest bodies while they are read and parsed, the
 * buffers an upload's bytes pass through. A request reserves before it allocates and releases when it is
 * done. Over the budget it waits its turn (first come, first served), and a request still waiting after
 * {@link #WAIT} is answered 429 TOOMANYREQUESTS with {@code Retry-After}, which clients retry. So a burst
 * of large requests slows down instead of running the process out of memory.
 */
@Component
public final class MemoryBudget {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int RETRY_AFTER_SECONDS = 2;

    private final long capacityKib;
    private final Semaphore freeKib;

    @Autowired
    MemoryBudget(RegistryApiProperties properties) {
        this(properties.requestMemory().toBytes());
    }

    public MemoryBudget(long capacityBytes) {
        this.capacityKib = Math.clamp(capacityBytes / 1024, 1, Integer.MAX_VALUE);
        this.freeKib = new Semaphore((int) capacityKib, true);
    }

    /**
     * Reserves {@code bytes} (at most the whole budget), waiting while other requests hold it.
     *
     * @throws RegistryException TOOMANYREQUESTS if the budget stayed full for {@link #WAIT}
     */
    public Reservation reserve(long bytes) throws InterruptedIOException {
        int kib = (int) Math.clamp((bytes + 1023) / 1024, 1, capacityKib);
        try {
            if (!freeKib.tryAcquire(kib, WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw RegistryException.of(ErrorCode.TOOMANYREQUESTS, "the registry is holding as much request data"
                                + " in memory as it may (layerfold.api.request-memory); retry after "
                                + RETRY_AFTER_SECONDS + " seconds", Map.of("bytes", bytes))
                        .withHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for request memory");
        }
        return new Reservation(kib);
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
