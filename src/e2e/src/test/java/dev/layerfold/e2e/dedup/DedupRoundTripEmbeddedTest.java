package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import dev.layerfold.e2e.distributed.LayerfoldNode;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The dedup round trip on the embedded backend (files and SQLite), through one registry process of its own. */
class DedupRoundTripEmbeddedTest extends DedupRoundTripContract {

    private LayerfoldNode node;

    @BeforeAll
    void startNode(@TempDir Path data) throws Exception {
        node = LayerfoldNode.start(data, Backends.embedded());
    }

    @AfterAll
    void stopNode() throws InterruptedException {
        if (node != null) {
            node.close();
        }
    }

    @Override
    RegistryProcess pushNode() {
        return node.process();
    }

    @Override
    RegistryProcess pullNode() {
        return node.process();
    }
}
