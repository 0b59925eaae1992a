package dev.layerfold.storage.redis;

import dev.layerfold.storage.testserver.RedisServer;

/**
 * Everything {@link RedisRestartTest} checks, on Redis Cluster, whose fingerprint is the run ids of
 * its masters as the cluster client finds them.
 */
class RedisClusterRestartTest extends RedisRestartTest {

    @Override
    protected RedisServer.Restartable startRedis(String... options) {
        return RedisServer.startRestartableCluster(options);
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
