package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.util.Map;

/**
 * Reads the files a layer record names: the seam through which an index kept apart from the bucket
 * (Redis) is rebuilt from it. The record blob's format belongs to the dedup pipeline; an index only
 * knows each deduplicated layer's record digest ({@link LayerState.Deduplicated#record()}), and
 * re-derives file locations and reference counts from what this returns for every such record.
 */
public interface LayerRecordFiles {

    /** Each file the record {@code record} holds, once, with where it is stored. */
    Map<Digest, FileLocation> files(Digest record) throws IOException;

    /**
     * Whether the blob is a layer record (by its first bytes), so that the collector's sweep of objects
     * no index knows leaves records alone: an orphaned one is small, and one a worker is about to commit
     * must not go.
     */
    boolean isRecord(Digest object) throws IOException;

    /** The size of a pack a record names, so that a rebuilt index counts the bytes stored. */
    long packSize(Digest pack) throws IOException;
}
