package dev.layerfold.storage.embedded;

import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.dedup.LayerPullsContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The pull counts contract on SQLite; another process's view is a second store on the same file. */
class SqliteLayerPullsTest extends LayerPullsContract {

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
    protected LayerPulls newPulls() throws Exception {
        return stores.open().layerPulls();
    }

    @Override
    protected LayerPulls samePulls() throws Exception {
        return stores.open().layerPulls();
    }
}
