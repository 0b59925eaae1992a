package dev.layerfold.storage.metadata;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The bookkeeping of upload sessions, kept apart from their bytes so that any registry process can
 * continue an upload another one started. Timestamps are kept to the millisecond.
 */
public interface UploadStateStore {

    /** Stores a new upload; fails if the id exists. */
    void createUpload(UploadState state) throws IOException;

    Optional<UploadState> upload(String uploadId) throws IOException;

    /**
     * Makes {@code claim} (a token unique to one request) the upload's only writer, if the upload still
     * holds {@code expectedSize} bytes and no other claim on it was renewed at or after
     * {@code expiredBefore}; counts as activity ({@code updatedAt = now}). Returns false otherwise.
     * Of requests racing on one upload, in one process or many, one at a time may write it: on a
     * store that keeps the running hash with the upload's state, two writers could otherwise leave
     * one's hash beside the other's bytes. A claim whose holder died expires, so its client can resume.
     */
    boolean claimUpload(String uploadId, long expectedSize, String claim, Instant now, Instant expiredBefore)
            throws IOException;

    /** Keeps {@code claim} alive; false if the upload is gone or another request has taken it over. */
    boolean renewClaim(String uploadId, String claim, Instant now) throws IOException;

    /** Drops {@code claim} after its request failed before advancing the upload; other claims stay. */
    void releaseUpload(String uploadId, String claim) throws IOException;

    /**
     * Replaces the state and drops the claim, only if the stored state still has {@code expectedSize}
     * bytes and is held by {@code claim} ({@code null}: by no one), so two requests racing on one
     * upload cannot both advance it. Returns false if the upload is gone, moved on or taken over.
     */
    boolean advanceUpload(UploadState next, long expectedSize, String claim) throws IOException;

    /** Returns false if the upload did not exist. */
    boolean deleteUpload(String uploadId) throws IOException;

    /** Uploads not touched since {@code cutoff}, for cleaning up abandoned ones. */
    List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException;
}
