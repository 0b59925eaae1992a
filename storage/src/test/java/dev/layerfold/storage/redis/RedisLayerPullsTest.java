package dev.layerfold.storage.redis;

import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.dedup.LayerPullsContract;
import dev.layerfold.storage.testserver.RedisServer;
import org.junit.jupiter.api.AfterEach;

/** The pull counts contract on a real Redis; another process's view is a second store on the same Redis and bucket. */
class RedisLayerPullsTest extends LayerPullsContract {

    private SharedServerStores stores;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected LayerPulls newPulls() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        return samePulls();
    }

    @Override
    protected LayerPulls samePulls() throws Exception {
        return stores.open().layerPulls();
    }

    @AfterEach
    void close() {
        stores.close();
    }
}
