package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.util.Objects;

/** What the dedup pipeline decided about a layer. */
public sealed interface LayerState {

    /**
     * The layer is stored as files plus a recipe. {@code record} is the blob holding its layer record
     * (recipe and file locations), {@code recordSize} that blob's size. Its files' bytes are counted with
     * their packs ({@link DedupIndex#packStored}), which layers share.
     */
    record Deduplicated(Digest record, long logicalSize, long recordSize) implements LayerState {
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
