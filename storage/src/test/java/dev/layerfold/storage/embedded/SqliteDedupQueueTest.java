package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupQueueContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The queue contract on SQLite; another process's view is a second store on the same file. */
class SqliteDedupQueueTest extends DedupQueueContract {

    @TempDir
    Path dir;

    private final List<SqliteMetadataStore> opened = new ArrayList<>();

    @Override
    protected DedupQueue newQueue() throws Exception {
        return open().dedupQueue();
    }

    @Override
    protected DedupQueue sameQueue() throws Exception {
        return open().dedupQueue();
    }

    private SqliteMetadataStore open() throws Exception {
        SqliteMetadataStore store = new SqliteMetadataStore(dir.resolve("metadata.db"));
        opened.add(store);
        return store;
    }

    @AfterEach
    void close() {
        opened.forEach(SqliteMetadataStore::close);
    }
}
