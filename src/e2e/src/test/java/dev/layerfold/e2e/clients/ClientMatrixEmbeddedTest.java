package dev.layerfold.e2e.clients;

import dev.layerfold.e2e.distributed.Backends;
import java.util.Map;

/** The client matrix on the embedded backend (files and SQLite), one registry process. */
class ClientMatrixEmbeddedTest extends ClientMatrixContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }

    @Override
    int nodeCount() {
        return 1;
    }

    @Override
    String backendName() {
        return "embedded";
    }
}
