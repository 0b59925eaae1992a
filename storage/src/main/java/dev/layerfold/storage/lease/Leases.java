package dev.layerfold.storage.lease;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/** Where leases are taken: one name, at most one holder across every process sharing the backend. */
public interface Leases {

    /** Takes the lease if nobody holds it; the returned lease is renewed until closed. */
    Optional<Lease> tryAcquire(String name, Duration timeToLive) throws IOException;

    /**
     * Takes the lease, waiting up to {@code maxWait} for the current holder to release it or expire.
     *
     * @throws LeaseUnavailableException if it is still held by someone else after {@code maxWait}
     */
    Lease acquire(String name, Duration timeToLive, Duration maxWait) throws IOException;
}
