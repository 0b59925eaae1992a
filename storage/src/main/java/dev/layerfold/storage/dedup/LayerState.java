package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.util.Objects;

/** What the dedup pipeline decided about a layer. */
public sealed interface LayerState {

    /**
     * The layer is stored as files plus a recipe. {@code record} is the blob holding its layer record
     * (recipe and file locations); {@code storedBytes} what its new files and record added to storage.
     */
    record Deduplicated(Digest record, long logicalSize, long storedBytes) implements LayerState {
        public Deduplicated {
            Objects.requireNonNull(record, "record");
        }
    }

    /** The layer stays intact, and why (not a layer, not reproducible, damaged, hostile). */
    record Intact(String reason) implements LayerState {
        public Intact {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
