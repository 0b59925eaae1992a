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
     * Marks the upload as being written by one request, if it still holds {@code expectedSize} bytes
     * and no other request has marked it, and counts that as activity ({@code updatedAt = now}).
     * Returns false if the upload is gone, moved on, or marked. Of requests racing on one upload, in
     * one process or many, exactly one may write it: on a store that keeps the running hash with the
     * upload's state, two writers could otherwise leave one's hash beside the other's bytes.
     *
     * <p>{@link #advanceUpload} and {@link #releaseUpload} clear the mark. A request whose process
     * dies keeps it: the upload takes no more bytes (its client pushes the blob again) and is swept
     * once idle.
     */
    boolean claimUpload(String uploadId, long expectedSize, Instant now) throws IOException;

    /** Clears the mark of {@link #claimUpload} after a request failed before advancing the upload. */
    void releaseUpload(String uploadId) throws IOException;

    /**
     * Replaces the state and clears the mark of {@link #claimUpload}, only if the stored state still
     * has {@code expectedSize} bytes, so two requests racing on one upload cannot both advance it.
     * Returns false if the upload is gone or moved on.
     */
    boolean advanceUpload(UploadState next, long expectedSize) throws IOException;

    /** Returns false if the upload did not exist. */
    boolean deleteUpload(String uploadId) throws IOException;

    /** Uploads not touched since {@code cutoff}, for cleaning up abandoned ones. */
    List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException;
}
