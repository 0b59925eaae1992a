package dev.layerfold.storage.testserver;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * One Redis server per test JVM: a Testcontainers Redis where a Docker engine is available, otherwise
 * a {@code redis-server} process (the Debian package) on a free port with a temporary directory.
 * Both have persistence off: tests never restart it.
 *
 * <p>Tests share the server and keep apart by key namespace ({@link #newNamespace()}).
 */
public final class RedisServer {

    private static final String IMAGE = "redis:7.4-alpine";
    private static final AtomicLong NAMESPACES = new AtomicLong();

    private final String url;

    private RedisServer(String url) {
        this.url = url;
    }

    public static RedisServer shared() {
        return Holder.INSTANCE;
    }

    /**
     * A one-node Redis Cluster owning every slot, always a local {@code redis-server} process (a
     * container's cluster would announce an address the client cannot reach). One node suffices: Redis
     * Cluster refuses commands and scripts whose keys span slots even when one node owns them all.
     */
    public static RedisServer sharedCluster() {
        return ClusterHolder.INSTANCE;
    }

    /** A {@code redis://host:port} URL. */
    public String url() {
        return url;
    }

    /** A key namespace no other test in this JVM uses. */
    public static String newNamespace() {
        return "test" + ProcessHandle.current().pid() + "-" + NAMESPACES.incrementAndGet();
    }

    private static RedisServer start() {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            GenericContainer<?> container = new GenericContainer<>(IMAGE).withExposedPorts(6379);
            container.start();
            System.out.println("RedisServer: Docker is available, Redis runs in a container");
            return new RedisServer("redis://" + container.getHost() + ":" + container.getMappedPort(6379));
        }
        return startProcess("redis-server");
    }

    private static RedisServer startProcess(String name, String... options) {
        int port = LocalProcess.freePort();
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", "."));
        command.addAll(List.of(options));
        LocalProcess process = LocalProcess.start(name, LocalProcess.newDirectory(name), command);
        process.awaitPort(port, Duration.ofSeconds(20));
        System.out.println("RedisServer: " + name + " runs as a local process on port " + port);
        return new RedisServer("redis://127.0.0.1:" + port);
    }

    private static RedisServer startCluster() {
        RedisServer server = startProcess("redis-cluster", "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf");
        RedisClient client = RedisClient.create(server.url);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().clusterAddSlots(IntStream.range(0, 16384).toArray());
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!connection.sync().clusterInfo().contains("cluster_state:ok")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Redis Cluster did not become ready: " + connection.sync().clusterInfo());
                }
                Thread.sleep(50);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting Redis Cluster", e);
        } finally {
            client.shutdown();
        }
        return server;
    }

    private static final class Holder {
        static final RedisServer INSTANCE = start();
    }

    private static final class ClusterHolder {
        static final RedisServer INSTANCE = startCluster();
    }
}
