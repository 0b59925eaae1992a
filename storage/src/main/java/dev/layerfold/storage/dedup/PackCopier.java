package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.util.Optional;

/**
 * Copies what is still live in a pack into a new one: the seam through which the garbage collector
 * (which knows when) rewrites packs, whose format belongs to the dedup pipeline (which knows how).
 */
public interface PackCopier {

    /**
     * Publishes a new pack holding the frames of {@code pack} whose files the index still locates
     * there, in their order, and says where each went; empty if none is live. The index is not changed:
     * the caller switches the files with {@link DedupIndex#relocate}.
     */
    Optional<PackCopy> copyLive(Digest pack) throws IOException;
}
