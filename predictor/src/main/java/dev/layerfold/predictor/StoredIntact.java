package dev.layerfold.predictor;

import dev.layerfold.storage.Digest;
import java.io.IOException;

/** Tells an intact layer (a read away) from a deduplicated one (a rebuild away); the server asks the blob store. */
@FunctionalInterface
public interface StoredIntact {

    boolean isIntact(Digest layer) throws IOException;
}
