package dev.layerfold.dedup.pipeline;

/**
 * What became of one dedup task.
 *
 * @param kind       what happened
 * @param reason     for {@link Kind#INTACT}, why the layer stays intact (a short category for
 *                   metrics); for {@link Kind#RETRY}, what to try again
 * @param logicalSize the layer's size
 * @param storedBytes what deduplicating it added to storage (new packs and its record)
 */
public record DedupOutcome(Kind kind, String reason, long logicalSize, long storedBytes) {

    public enum Kind {
        /** Stored as files plus a recipe, proven to rebuild, and the intact blob removed. */
        DEDUPLICATED,
        /** The layer stays intact, for {@link #reason}. */
        INTACT,
        /** Decided earlier (or the blob is gone): nothing to do. */
        ALREADY_DONE,
        /** Could not finish now (a file being stored elsewhere, a race with reclamation): try later. */
        RETRY
    }

    static DedupOutcome intact(String reason) {
        return new DedupOutcome(Kind.INTACT, reason, 0, 0);
    }

    static DedupOutcome alreadyDone() {
        return new DedupOutcome(Kind.ALREADY_DONE, "", 0, 0);
    }

    static DedupOutcome retry(String reason) {
        return new DedupOutcome(Kind.RETRY, reason, 0, 0);
    }
}
