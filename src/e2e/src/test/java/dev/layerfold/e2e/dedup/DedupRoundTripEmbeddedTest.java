package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The dedup round trip on the embedded backend (files and SQLite), through one registry process of its own. */
class DedupRoundTripEmbeddedTest extends DedupRoundTripContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }

    @Override
    int nodeCount() {
        return 1;
    }
}
