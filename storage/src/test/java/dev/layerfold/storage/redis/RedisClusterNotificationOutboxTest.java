package dev.layerfold.storage.redis;

import dev.layerfold.storage.testserver.RedisServer;

/** Everything {@link RedisNotificationOutboxTest} checks, on Redis Cluster, which refuses scripts whose keys span slots. */
class RedisClusterNotificationOutboxTest extends RedisNotificationOutboxTest {

    @Override
    protected String redisUrl() {
        return RedisServer.sharedCluster().url();
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
