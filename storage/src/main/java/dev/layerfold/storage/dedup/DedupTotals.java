package dev.layerfold.storage.dedup;

import java.util.Map;

/**
 * What deduplication has achieved, for metrics and the admin endpoint.
 *
 * @param layersDeduplicated layers stored as files plus a recipe
 * @param logicalBytes       the size of those layers as pushed
 * @param storedBytes        what deduplication stores: every pack recorded, and the records of those layers
 * @param fileReferences     files those layers hold, counted once per layer
 * @param uniqueFiles        distinct files stored
 * @param intactByReason     layers that stay intact, counted by the reason
 */
public record DedupTotals(long layersDeduplicated, long logicalBytes, long storedBytes, long fileReferences,
                          long uniqueFiles, Map<String, Long> intactByReason) {
    public DedupTotals {
        intactByReason = Map.copyOf(intactByReason);
    }
}
