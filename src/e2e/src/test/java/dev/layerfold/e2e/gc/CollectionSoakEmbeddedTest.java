package dev.layerfold.e2e.gc;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The soak on one node over files and SQLite, killed and restarted on its data directory. */
class CollectionSoakEmbeddedTest extends CollectionSoakContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }

    @Override
    int nodeCount() {
        return 1;
    }
}
