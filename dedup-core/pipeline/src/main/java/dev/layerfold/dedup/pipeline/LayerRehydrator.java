package dev.layerfold.dedup.pipeline;

import dev.layerfold.storage.Digest;
import java.io.IOException;

/** Rebuilds a deduplicated layer into an intact copy beside its recipe (the restore service does). */
@FunctionalInterface
public interface LayerRehydrator {

    void rehydrate(Digest layer) throws IOException;
}
