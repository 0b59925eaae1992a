package dev.layerfold.storage.lease;

import java.io.IOException;
import java.time.Duration;

/** Another process held a lease for longer than the caller was willing to wait. */
public class LeaseUnavailableException extends IOException {
    public LeaseUnavailableException(String name, Duration waited) {
        super("lease '" + name + "' is still held by another process after waiting " + waited
                + "; if that process died, the lease expires after its time-to-live");
    }
}
