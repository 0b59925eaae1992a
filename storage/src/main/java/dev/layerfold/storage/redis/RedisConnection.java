package dev.layerfold.storage.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.event.Event;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;

/**
 * One thread-safe connection to Redis, standalone or Cluster, from a {@code redis://} or
 * {@code rediss://} (TLS) URL such as {@code rediss://:password@redis.example:6380/0}. The stores
 * only use commands and scripts whose keys share a hash tag, so both kinds serve them alike.
 */
public final class RedisConnection implements AutoCloseable {

    private final AbstractRedisClient client;
    private final RedisClusterCommands<String, String> commands;
    private final Supplier<List<String>> serverInfos;

    private RedisConnection(AbstractRedisClient client, RedisClusterCommands<String, String> commands,
                            Supplier<List<String>> serverInfos) {
        this.client = client;
        this.commands = commands;
        this.serverInfos = serverInfos;
    }

    /**
     * Connects to {@code url}; with {@code cluster}, the URL names any node of a Redis Cluster and the
     * client follows the cluster's slot map.
     */
    public static RedisConnection open(String url, boolean cluster) {
        return open(url, cluster, Optional.empty());
    }

    /** {@link #open(String, boolean)}, with every command's latency told to {@code latencies} (metrics). */
    public static RedisConnection open(String url, boolean cluster, Optional<CommandLatencyRecorder> latencies) {
        if (url == null || !(url.startsWith("redis://") || url.startsWith("rediss://"))) {
            throw new IllegalArgumentException("Redis URL '" + url + "' must start with redis:// or rediss:// "
                    + "(layerfold.storage.redis.url)");
        }
        RedisURI uri = RedisURI.create(url);
        ClientResources resources = latencies.map(recorder -> DefaultClientResources.builder().commandLatencyRecorder(recorder).build())
                .orElseGet(DefaultClientResources::create);
        if (cluster) {
            RedisClusterClient client = RedisClusterClient.create(resources, uri);
            StatefulRedisClusterConnection<String, String> connection = client.connect();
            return new RedisConnection(client, connection.sync(), () -> {
                // The client's view of which nodes are masters changes only when asked to look again.
                client.refreshPartitions();
                return connection.sync().upstream().commands().info("server").stream().toList();
            });
        }
        RedisClient client = RedisClient.create(resources, uri);
        StatefulRedisConnection<String, String> connection = client.connect();
        return new RedisConnection(client, connection.sync(), () -> List.of(connection.sync().info("server")));
    }

    public RedisClusterCommands<String, String> commands() {
        return commands;
    }

    /**
     * The {@code INFO server} section of every server that holds data: the one server, or on Cluster
     * each master.
     */
    List<String> serverInfos() {
        return serverInfos.get();
    }

    /** The client's events, among them its connections going down and coming back up. */
    Flux<Event> events() {
        return client.getResources().eventBus().get();
    }

    /** Closes the connection and the client's threads. */
    @Override
    public void close() {
        client.shutdown();
        client.getResources().shutdown();
    }
}
