package dev.layerfold.storage.usage;

import dev.layerfold.storage.RepositoryName;

/**
 * One repository's figures (see {@link RepositoryUsage}).
 *
 * @param logicalBytes   the distinct blobs its manifests name, as pushed
 * @param exclusiveBytes of those, the blobs no other repository holds, as pushed
 * @param storedBytes    the stored bytes of all its blobs (shared ones counted in full)
 * @param freedBytes     the stored bytes of its exclusive blobs: what deleting it would free
 * @param pushes         manifests pushed to it
 * @param pulls          manifests pulled from it
 */
public record Usage(RepositoryName repository, long logicalBytes, long exclusiveBytes, long storedBytes,
                    long freedBytes, long pushes, long pulls) {

    /** Bytes (as pushed) it shares with other repositories. */
    public long sharedBytes() {
        return logicalBytes - exclusiveBytes;
    }

    /** What deduplication saves on its blobs: logical less stored. */
    public long savedBytes() {
        return logicalBytes - storedBytes;
    }
}
