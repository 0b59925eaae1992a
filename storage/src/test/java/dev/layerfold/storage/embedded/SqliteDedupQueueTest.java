package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupQueueContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The queue contract on SQLite; another process's view is a second store on the same file. */
class SqliteDedupQueueTest extends DedupQueueContract {

    @TempDir
    Path dir;

    private SqliteStoresOnOneFile stores;

    @BeforeEach
    void file() {
        stores = new SqliteStoresOnOneFile(dir.resolve("metadata.db"));
    }

    @AfterEach
    void close() {
        stores.close();
    }

    @Override
    protected DedupQueue newQueue() throws Exception {
        return stores.open().dedupQueue();
    }

    @Override
    protected DedupQueue sameQueue() throws Exception {
        return stores.open().dedupQueue();
    }
}
