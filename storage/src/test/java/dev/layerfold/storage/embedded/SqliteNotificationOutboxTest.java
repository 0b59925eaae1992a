package dev.layerfold.storage.embedded;

import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.NotificationOutboxContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The outbox contract on SQLite; another process's view is a second store on the same file. */
class SqliteNotificationOutboxTest extends NotificationOutboxContract {

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
    protected NotificationOutbox newOutbox() throws Exception {
        return stores.open().notificationOutbox();
    }

    @Override
    protected NotificationOutbox sameOutbox() throws Exception {
        return stores.open().notificationOutbox();
    }
}
