package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcIndexContract;
import dev.layerfold.storage.testserver.RedisServer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The GC index contract on a real Redis, plus what losing Redis means for it. */
class RedisGcIndexTest extends GcIndexContract {

    private SharedServerStores stores;

    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected GcIndex newIndex() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        GcIndex index = sameIndex();
        index.markComplete(index.generation(), true);
        return index;
    }

    @Override
    protected GcIndex sameIndex() throws Exception {
        return stores.open().gcIndex();
    }

    @AfterEach
    void close() {
        if (stores != null) {
            stores.close();
        }
    }

    @Test
    void anIndexRedisLostIsIncompleteAndCondemnsNothing() throws Exception {
        GcIndex index = newIndex();
        index.reference(RepositoryName.of("app"), digest("manifest"), List.of(digest("layer")));
        index.touch(RepositoryName.of("app"), digest("layer"));

        stores.forgetEverythingInRedis();
        index.touch(RepositoryName.of("app"), digest("layer"));

        assertThat(index.completeSince()).isEmpty();
        assertThat(index.condemn(digest("layer"), java.time.Duration.ZERO)).isEmpty();
    }
}
