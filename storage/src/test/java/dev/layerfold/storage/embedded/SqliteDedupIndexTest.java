package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupIndexContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The index contract on SQLite; another process's view is a second store on the same file. */
class SqliteDedupIndexTest extends DedupIndexContract {

    @TempDir
    Path dir;

    private final List<SqliteMetadataStore> opened = new ArrayList<>();

    @Override
    protected DedupIndex newIndex() throws Exception {
        return open().dedupIndex();
    }

    @Override
    protected DedupIndex sameIndex() throws Exception {
        return open().dedupIndex();
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
