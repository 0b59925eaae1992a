package dev.layerfold.storage.dedup;

import java.util.Optional;

/**
 * The answer to a claim on a file: {@link Status#CLAIMED} (the caller stores it, and nobody else
 * will while the claim lasts), {@link Status#STORED} (it is stored already, at {@code location}) or
 * {@link Status#BUSY} (another worker holds the claim: wait for it to record the file).
 */
public record FileClaim(Status status, Optional<FileLocation> location) {

    public enum Status { CLAIMED, STORED, BUSY }

    public static final FileClaim CLAIMED = new FileClaim(Status.CLAIMED, Optional.empty());
    public static final FileClaim BUSY = new FileClaim(Status.BUSY, Optional.empty());

    public static FileClaim stored(FileLocation location) {
        return new FileClaim(Status.STORED, Optional.of(location));
    }
}
