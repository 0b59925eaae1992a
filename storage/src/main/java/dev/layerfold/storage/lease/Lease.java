package dev.layerfold.storage.lease;

/**
 * The right, for a limited time, to do work only one process may do at once. The holder's process
 * renews it in the background (a heartbeat) while it is open; if that process dies or stalls, the
 * lease expires after its time-to-live and another process can take it, so a crash never blocks the
 * cluster.
 *
 * <p>Expiry also means a stalled holder can lose a lease it still believes it has: long-running
 * work checks {@link #isHeld()} between steps and stops when it turns false.
 */
public interface Lease extends AutoCloseable {

    String name();

    /** False once the lease was released, or lost because it could not be renewed before it expired. */
    boolean isHeld();

    /** Releases the lease if this holder still has it; other holders' leases are never touched. */
    @Override
    void close();
}
