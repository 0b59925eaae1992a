package dev.layerfold.dedup.pipeline;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * Lets background work give way to clients while it runs, not only before it starts: the work calls
 * {@link #pause} between pieces (or reads and writes through {@link #pacing} streams, which call it
 * every {@link #PIECE} bytes), and a call returns once the registry has no client to serve. A pause
 * lasts at most {@code maxPause}; then one more piece runs before the next pause, so a registry that
 * is never idle still drains its backlog, slowly. The work keeps everything it holds (its lease, its
 * spool) while it pauses: a pause costs the clients nothing but the memory already held.
 */
public final class YieldToClients {

    /** Never pauses: for tools, tests and benchmarks that run background work alone. */
    public static final YieldToClients NEVER = new YieldToClients(() -> false, Duration.ZERO);

    /** Bytes of work between two checks: a few milliseconds of splitting, compressing or encoding. */
    static final int PIECE = 256 * 1024;
    private static final long STEP_MILLIS = 10;

    private final BooleanSupplier busy;
    private final long maxPauseNanos;
    private final AtomicInteger pausedNow;
    private final LongAdder pauses;
    private final LongAdder pausedNanos;

    /**
     * @param busy     whether clients are being served (or were just now): work pauses while it is true
     * @param maxPause the longest one pause lasts
     */
    public YieldToClients(BooleanSupplier busy, Duration maxPause) {
        this(busy, maxPause.toNanos(), new AtomicInteger(), new LongAdder(), new LongAdder());
    }

    private YieldToClients(BooleanSupplier busy, long maxPauseNanos, AtomicInteger pausedNow, LongAdder pauses, LongAdder pausedNanos) {
        this.busy = busy;
        this.maxPauseNanos = maxPauseNanos;
        this.pausedNow = pausedNow;
        this.pauses = pauses;
        this.pausedNanos = pausedNanos;
    }

    /**
     * The same, but never pausing while {@code clientsWaitOnIt} is true: work that holds what a client
     * waits for (rebuild memory) goes on, as pausing it would make the client wait longer.
     */
    public YieldToClients unless(BooleanSupplier clientsWaitOnIt) {
        if (this == NEVER) {
            return this;
        }
        return new YieldToClients(() -> busy.getAsBoolean() && !clientsWaitOnIt.getAsBoolean(), maxPauseNanos, pausedNow, pauses,
                pausedNanos);
    }

    /** Whether clients are being served now: work not yet started waits. */
    public boolean busy() {
        return busy.getAsBoolean();
    }

    /** Waits while clients are served, at most {@code maxPause}. */
    public void pause() throws InterruptedIOException {
        if (maxPauseNanos <= 0 || !busy.getAsBoolean()) {
            return;
        }
        long start = System.nanoTime();
        pauses.increment();
        pausedNow.incrementAndGet();
        try {
            while (busy.getAsBoolean() && System.nanoTime() - start < maxPauseNanos) {
                Thread.sleep(STEP_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while yielding to clients");
        } finally {
            pausedNow.decrementAndGet();
            pausedNanos.add(System.nanoTime() - start);
        }
    }

    /** Threads paused now. */
    public int pausedNow() {
        return pausedNow.get();
    }

    /** Pauses so far. */
    public long pauses() {
        return pauses.sum();
    }

    /** {@code in}, pausing every {@link #PIECE} bytes read. */
    public InputStream pacing(InputStream in) {
        if (this == NEVER) {
            return in;
        }
        return new FilterInputStream(in) {
            private long sinceCheck;

            @Override
            public int read() throws IOException {
                paceAfter(1);
                return super.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    paceAfter(n);
                }
                return n;
            }

            private void paceAfter(int bytes) throws InterruptedIOException {
                sinceCheck += bytes;
                if (sinceCheck >= PIECE) {
                    sinceCheck = 0;
                    pause();
                }
            }
        };
    }

    /** {@code out}, pausing every {@link #PIECE} bytes written. */
    public OutputStream pacing(OutputStream out) {
        if (this == NEVER) {
            return out;
        }
        return new FilterOutputStream(out) {
            private long sinceCheck;

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                paceAfter(1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                paceAfter(len);
            }

            private void paceAfter(int bytes) throws InterruptedIOException {
                sinceCheck += bytes;
                if (sinceCheck >= PIECE) {
                    sinceCheck = 0;
                    pause();
                }
            }
        };
    }

    /** Publishes the pauses under {@code layerfold.<work>.yield.*}. */
    public YieldToClients register(MeterRegistry registry, String work) {
        String prefix = "layerfold." + work + ".yield.";
        FunctionCounter.builder(prefix + "pauses", this, YieldToClients::pauses)
                .description(work + " work paused mid-layer because clients were being served").register(registry);
        FunctionCounter.builder(prefix + "paused", this, y -> y.pausedNanos.sum() / 1e9).baseUnit("seconds")
                .description("time " + work + " work spent paused for clients").register(registry);
        Gauge.builder(prefix + "paused.threads", this, YieldToClients::pausedNow)
                .description(work + " threads paused for clients now").register(registry);
        return this;
    }
}
