package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.RepositoryUsageContract;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The accounting contract on a real Redis, plus what losing Redis means for it. */
class RedisRepositoryUsageTest extends RepositoryUsageContract {

    private SharedServerStores stores;

    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected RepositoryUsage newUsage() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        RepositoryUsage usage = sameUsage();
        usage.markComplete();
        return usage;
    }

    @Override
    protected RepositoryUsage sameUsage() throws Exception {
        return stores.open().repositoryUsage();
    }

    @AfterEach
    void close() {
        if (stores != null) {
            stores.close();
        }
    }

    @Test
    void figuresRedisLostAreIncomplete() throws Exception {
        RepositoryUsage usage = newUsage();
        usage.referenced(RepositoryName.of("app"), digest("m"), Map.of(digest("layer"), 10L));

        stores.forgetEverythingInRedis();

        assertThat(usage.complete()).isFalse();
    }
}
