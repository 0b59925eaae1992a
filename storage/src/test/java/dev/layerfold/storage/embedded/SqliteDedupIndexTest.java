package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupIndexContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The index contract on SQLite; another process's view is a second store on the same file. */
class SqliteDedupIndexTest extends DedupIndexContract {

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
    protected DedupIndex newIndex() throws Exception {
        return stores.open().dedupIndex();
    }

    @Override
    protected DedupIndex sameIndex() throws Exception {
        return stores.open().dedupIndex();
    }
}
