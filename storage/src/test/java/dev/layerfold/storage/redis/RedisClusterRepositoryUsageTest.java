package dev.layerfold.storage.redis;

import dev.layerfold.storage.testserver.RedisServer;

/** Everything {@link RedisRepositoryUsageTest} checks, on Redis Cluster, which refuses scripts whose keys span slots. */
class RedisClusterRepositoryUsageTest extends RedisRepositoryUsageTest {

    @Override
    protected String redisUrl() {
        return RedisServer.sharedCluster().url();
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
