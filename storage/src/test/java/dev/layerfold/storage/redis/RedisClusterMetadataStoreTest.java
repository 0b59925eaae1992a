package dev.layerfold.storage.redis;

import dev.layerfold.storage.testserver.RedisServer;

/**
 * Everything {@link RedisMetadataStoreTest} checks, on Redis Cluster: it fails any command or script
 * whose keys are in different slots, which is how a missing hash tag would show.
 */
class RedisClusterMetadataStoreTest extends RedisMetadataStoreTest {

    @Override
    protected String redisUrl() {
        return RedisServer.sharedCluster().url();
    }

    @Override
    protected boolean cluster() {
        return true;
    }
}
