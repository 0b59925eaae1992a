package dev.layerfold.storage.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * One thread-safe connection to Redis, standalone or Cluster, from a {@code redis://} or
 * {@code rediss://} (TLS) URL such as {@code rediss://:password@redis.example:6380/0}. The stores
 * only use commands and scripts whose keys share a hash tag, so both kinds serve them alike.
 */
public final class RedisConnection implements AutoCloseable {

    private final AbstractRedisClient client;
    private final RedisClusterCommands<String, String> commands;

    private RedisConnection(AbstractRedisClient client, RedisClusterCommands<String, String> commands) {
        this.client = client;
        this.commands = commands;
    }

    /**
     * Connects to {@code url}; with {@code cluster}, the URL names any node of a Redis Cluster and the
     * client follows the cluster's slot map.
     */
    public static RedisConnection open(String url, boolean cluster) {
        if (url == null || !(url.startsWith("redis://") || url.startsWith("rediss://"))) {
            throw new IllegalArgumentException("Redis URL '" + url + "' must start with redis:// or rediss:// "
                    + "(layerfold.storage.redis.url)");
        }
        RedisURI uri = RedisURI.create(url);
        if (cluster) {
            RedisClusterClient client = RedisClusterClient.create(uri);
            return new RedisConnection(client, client.connect().sync());
        }
        RedisClient client = RedisClient.create(uri);
        return new RedisConnection(client, client.connect().sync());
    }

    public RedisClusterCommands<String, String> commands() {
        return commands;
    }

    /** Closes the connection and the client's threads. */
    @Override
    public void close() {
        client.shutdown();
    }
}
