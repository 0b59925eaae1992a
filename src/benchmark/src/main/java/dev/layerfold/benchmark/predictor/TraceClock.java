package dev.layerfold.benchmark.predictor;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The time of the trace record being replayed: the predictor's clock in a replay faster than real time. */
final class TraceClock extends Clock {

    private volatile Instant now = Instant.EPOCH;

    void set(Instant instant) {
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
