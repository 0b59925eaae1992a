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
     * Replaces the state only if the stored one still has {@code expectedSize} bytes, so two requests
     * racing on one upload cannot both advance it. Returns false if the upload is gone or moved on.
     */
    boolean advanceUpload(UploadState next, long expectedSize) throws IOException;

    /** Returns false if the upload did not exist. */
    boolean deleteUpload(String uploadId) throws IOException;

    /** Uploads not touched since {@code cutoff}, for cleaning up abandoned ones. */
    List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException;
}
