package dev.layerfold.storage.redis;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Serialises the changes to one record across processes: whoever changes a record holds the lease
 * named by its bucket key while it writes the bucket and then the index, so the index applies
 * changes in the same order as the bucket. Several records are locked in key order, so two callers
 * never wait for each other in a cycle.
 */
final class RecordLocks {

    /** A change takes milliseconds; the heartbeat keeps a slow one's lease, expiry frees a dead one's. */
    private static final Duration TIME_TO_LIVE = Duration.ofSeconds(15);
    private static final Duration MAX_WAIT = Duration.ofSeconds(30);

    @FunctionalInterface
    interface Change<T> {
        T apply() throws IOException;
    }

    private final Leases leases;

    RecordLocks(Leases leases) {
        this.leases = leases;
    }

    <T> T holding(String recordKey, Change<T> change) throws IOException {
        try (Lease ignored = leases.acquire(recordKey, TIME_TO_LIVE, MAX_WAIT)) {
            return change.apply();
        }
    }

    <T> T holdingAll(List<String> recordKeys, Change<T> change) throws IOException {
        List<Lease> held = new ArrayList<>();
        try {
            for (String key : new TreeSet<>(recordKeys)) {
                held.add(leases.acquire(key, TIME_TO_LIVE, MAX_WAIT));
            }
            return change.apply();
        } finally {
            held.reversed().forEach(Lease::close);
        }
    }
}
