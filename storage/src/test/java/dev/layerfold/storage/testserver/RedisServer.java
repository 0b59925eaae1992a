package dev.layerfold.storage.testserver;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
            return new RedisServer("redis://" + container.getHost() + ":" + container.getMappedPort(6379));
        }
        int port = LocalProcess.freePort();
        LocalProcess process = LocalProcess.start("redis-server", LocalProcess.newDirectory("redis"), List.of(
                "redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", "."));
        process.awaitPort(port, Duration.ofSeconds(20));
        return new RedisServer("redis://127.0.0.1:" + port);
    }

    private static final class Holder {
        static final RedisServer INSTANCE = start();
    }
}
