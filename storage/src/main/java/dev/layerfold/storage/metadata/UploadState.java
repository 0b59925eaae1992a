package dev.layerfold.storage.metadata;

import dev.layerfold.storage.RepositoryName;
import java.time.Instant;
import java.util.Objects;

/**
 * An upload session: which repository it targets, how many bytes it has taken, and an optional
 * serialised running-hash state covering exactly those bytes ({@code hashState}, empty when the
 * process that hashed them kept the state only in memory).
 */
public record UploadState(String id, RepositoryName repository, long size, byte[] hashState,
                          Instant startedAt, Instant updatedAt) {
    public UploadState {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(repository, "repository");
        hashState = hashState == null ? new byte[0] : hashState.clone();
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    @Override
    public byte[] hashState() {
        return hashState.clone();
    }

    /** The state after {@code appended} more bytes, hashed to {@code newHashState}. */
    public UploadState advancedBy(long appended, byte[] newHashState, Instant now) {
        return new UploadState(id, repository, size + appended, newHashState, startedAt, now);
    }
}
