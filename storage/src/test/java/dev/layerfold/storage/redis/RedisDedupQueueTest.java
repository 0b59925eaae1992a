package dev.layerfold.storage.redis;

import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupQueueContract;
import dev.layerfold.storage.testserver.RedisServer;
import org.junit.jupiter.api.AfterEach;

/** The queue contract on a real Redis; another process's view is a second store on the same Redis and bucket. */
class RedisDedupQueueTest extends DedupQueueContract {

    private SharedServerStores stores;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected DedupQueue newQueue() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        return sameQueue();
    }

    @Override
    protected DedupQueue sameQueue() throws Exception {
        return stores.open().dedupQueue();
    }

    @AfterEach
    void close() {
        stores.close();
    }
}
