package dev.layerfold.e2e.distributed;

import java.util.Map;

/** Kill -9 mid-push on the embedded backends: files and SQLite in the node's data directory. */
class KillDuringPushEmbeddedTest extends KillDuringPushContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }
}
