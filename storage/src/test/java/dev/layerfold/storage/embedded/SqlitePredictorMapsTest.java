package dev.layerfold.storage.embedded;

import dev.layerfold.storage.predictor.PredictorMapsContract;
import dev.layerfold.storage.predictor.PredictorStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The predictor maps' contract on SQLite; another process's view is a second store on the same file. */
class SqlitePredictorMapsTest extends PredictorMapsContract {

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
    protected PredictorStorage newStorage() throws Exception {
        return stores.open();
    }

    @Override
    protected PredictorStorage sameStorage() throws Exception {
        return stores.open();
    }
}
