package dev.layerfold.storage.testserver;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
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
 * Both have persistence off: tests never restart them ({@link #startRestartable} makes one to restart).
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
        return startProcess("redis-server", List.of());
    }

    /**
     * A Redis of the caller's own, always a local {@code redis-server} process, persisting to its own
     * directory with {@code options} (such as {@code --appendonly yes}), which the caller can kill and
     * start again on the same port and data, as after a crash.
     */
    public static Restartable startRestartable(String... options) {
        return new Restartable(false, List.of(options));
    }

    /** {@link #startRestartable}, as a one-node Redis Cluster (see {@link #sharedCluster()}). */
    public static Restartable startRestartableCluster(String... options) {
        return new Restartable(true, List.of(options));
    }

    /** See {@link #startRestartable(String...)}. */
    public static final class Restartable implements AutoCloseable {
        private final Path directory = LocalProcess.newDirectory("redis-restartable");
        private final int port = LocalProcess.freePort();
        private final boolean cluster;
        private final List<String> options;
        private LocalProcess process;

        private Restartable(boolean cluster, List<String> options) {
            this.cluster = cluster;
            this.options = options;
            launch();
            if (cluster) {
                ownAllSlots(url());
            }
        }

        public String url() {
            return "redis://127.0.0.1:" + port;
        }

        /** Kills Redis with SIGKILL: it keeps only what it had persisted. */
        public void kill() {
            process.kill();
        }

        /** Starts Redis again on the same port and directory: it loads what it had persisted. */
        public void start() {
            launch();
            if (cluster) {
                awaitClusterReady(url()); // the slots it owns are in its nodes.conf
            }
        }

        private void launch() {
            List<String> command = new ArrayList<>(options);
            if (cluster) {
                command.addAll(CLUSTER_OPTIONS);
            }
            process = LocalProcess.start("redis-restartable", directory, command(port, command));
            process.awaitPort(port, Duration.ofSeconds(20));
        }

        @Override
        public void close() {
            process.stop();
        }
    }

    /**
     * A local {@code redis-server} that speaks only TLS, for {@code rediss://} URLs. Its certificate is
     * self-signed (made by {@code openssl}), so no JVM trusts it.
     */
    public static TlsOnly startTlsOnly() {
        return new TlsOnly();
    }

    /** See {@link #startTlsOnly()}. */
    public static final class TlsOnly implements AutoCloseable {
        private final int port = LocalProcess.freePort();
        private final LocalProcess process;

        private TlsOnly() {
            Path directory = LocalProcess.newDirectory("redis-tls");
            selfSignedCertificate(directory);
            process = LocalProcess.start("redis-tls", directory, command(port, List.of("--port", "0",
                    "--tls-port", Integer.toString(port), "--tls-cert-file", "cert.pem", "--tls-key-file", "key.pem",
                    "--tls-ca-cert-file", "cert.pem", "--tls-auth-clients", "no")));
            process.awaitPort(port, Duration.ofSeconds(20));
        }

        /** A {@code rediss://host:port} URL. */
        public String url() {
            return "rediss://127.0.0.1:" + port;
        }

        @Override
        public void close() {
            process.stop();
        }

        private static void selfSignedCertificate(Path directory) {
            List<String> command = List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2",
                    "-subj", "/CN=127.0.0.1");
            try {
                Process openssl = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                        .redirectOutput(directory.resolve("openssl.log").toFile()).start();
                if (openssl.waitFor() != 0) {
                    throw new IllegalStateException("openssl could not make a certificate; see " + directory.resolve("openssl.log"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot run openssl (" + String.join(" ", command) + "): is it installed?", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while making a certificate", e);
            }
        }
    }

    private static final List<String> CLUSTER_OPTIONS = List.of("--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf");

    /** Options after the defaults (persistence off) override them. */
    private static List<String> command(int port, List<String> options) {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", "."));
        command.addAll(options);
        return command;
    }

    private static RedisServer startProcess(String name, List<String> options) {
        int port = LocalProcess.freePort();
        LocalProcess process = LocalProcess.start(name, LocalProcess.newDirectory(name), command(port, options));
        process.awaitPort(port, Duration.ofSeconds(20));
        System.out.println("RedisServer: " + name + " runs as a local process on port " + port);
        return new RedisServer("redis://127.0.0.1:" + port);
    }

    private static RedisServer startCluster() {
        RedisServer server = startProcess("redis-cluster", CLUSTER_OPTIONS);
        ownAllSlots(server.url);
        return server;
    }

    private static void ownAllSlots(String url) {
        RedisClient client = RedisClient.create(url);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().clusterAddSlots(IntStream.range(0, 16384).toArray());
        } finally {
            client.shutdown();
        }
        awaitClusterReady(url);
    }

    private static void awaitClusterReady(String url) {
        RedisClient client = RedisClient.create(url);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
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
    }

    private static final class Holder {
        static final RedisServer INSTANCE = start();
    }

    private static final class ClusterHolder {
        static final RedisServer INSTANCE = startCluster();
    }
}
