package dev.layerfold.gc;

import java.time.Duration;

/** Spaces calls evenly at a rate, so that the collector's deletes never come in bursts. */
final class Pacer {

    private final long intervalNanos;
    private long next = System.nanoTime();

    Pacer(double perSecond) {
        this.intervalNanos = Math.max(1, (long) (1_000_000_000L / perSecond));
    }

    /** Waits until the next call is due. */
    void pace() throws InterruptedException {
        pace(1);
    }

    /** Waits until the next call is due, then counts this one as {@code units} (bytes, where the rate is bytes). */
    void pace(long units) throws InterruptedException {
        long now = System.nanoTime();
        if (next > now) {
            Thread.sleep(Duration.ofNanos(next - now));
        }
        next = Math.max(next, now) + intervalNanos * units;
    }
}
