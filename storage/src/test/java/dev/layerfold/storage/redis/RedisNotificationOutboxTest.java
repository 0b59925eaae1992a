package dev.layerfold.storage.redis;

import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.NotificationOutboxContract;
import dev.layerfold.storage.testserver.RedisServer;
import org.junit.jupiter.api.AfterEach;

/** The outbox contract on a real Redis; another process's view is a second store on the same Redis and namespace. */
class RedisNotificationOutboxTest extends NotificationOutboxContract {

    private SharedServerStores stores;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected NotificationOutbox newOutbox() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        return sameOutbox();
    }

    @Override
    protected NotificationOutbox sameOutbox() throws Exception {
        return stores.open().notificationOutbox();
    }

    @AfterEach
    void close() {
        stores.close();
    }
}
