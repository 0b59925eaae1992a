package dev.layerfold.storage.redis;

import dev.layerfold.storage.predictor.PredictorMapsContract;
import dev.layerfold.storage.predictor.PredictorStorage;
import dev.layerfold.storage.testserver.RedisServer;
import org.junit.jupiter.api.AfterEach;

/** The predictor maps' contract on a real Redis; another process's view is a second store on the same Redis. */
class RedisPredictorMapsTest extends PredictorMapsContract {

    private SharedServerStores stores;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected PredictorStorage newStorage() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        return stores.open();
    }

    @Override
    protected PredictorStorage sameStorage() throws Exception {
        return stores.open();
    }

    @AfterEach
    void close() {
        if (stores != null) {
            stores.close();
        }
    }
}
