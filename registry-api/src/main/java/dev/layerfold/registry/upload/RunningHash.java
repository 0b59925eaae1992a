package dev.layerfold.registry.upload;

import dev.layerfold.storage.Digest;

/**
 * A digest being computed over an upload's bytes as they arrive. Not thread-safe: appends to one upload
 * are serialised by the caller.
 */
interface RunningHash {

    Digest.Algorithm algorithm();

    void update(byte[] bytes, int offset, int length);

    /** An independent copy of the state so far, to go back to when an append fails half-way. */
    RunningHash copy();

    /**
     * The state so far, encoded for another process to continue from ({@link ResumableHash#restore}),
     * or empty where the implementation cannot export it.
     */
    byte[] encodedState();

    /** The digest of the bytes so far; the hash is not to be used afterwards. */
    Digest finish();
}
