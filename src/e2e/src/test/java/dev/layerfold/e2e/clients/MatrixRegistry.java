package dev.layerfold.e2e.clients;

import dev.layerfold.e2e.dedup.DedupAdmin;
import dev.layerfold.e2e.distributed.LayerfoldNodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The registry the client matrix runs against: the packaged Layerfold with sign-in required (Docker
 * tokens, one user allowed everything) and dedup on, as one process or as several on one storage.
 * Clients push through the first process and pull through the last, each after {@link #settle()}.
 */
final class MatrixRegistry implements AutoCloseable {

    static final String USER = "matrix";
    static final String PASSWORD = "matrix-secret";
    /** An operator with the admin grant only, for the dedup admin endpoint. */
    private static final String ADMIN = "matrix-admin";
    private static final String ADMIN_PASSWORD = "matrix-admin-secret";
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);

    private final LayerfoldNodes nodes;

    private MatrixRegistry(LayerfoldNodes nodes) {
        this.nodes = nodes;
    }

    static MatrixRegistry start(Path work, Map<String, String> backend, int nodeCount)
            throws IOException, InterruptedException {
        Path htpasswd = Files.writeString(work.resolve("htpasswd"),
                USER + ":" + BCrypt.hashpw(PASSWORD, BCrypt.gensalt(5)) + "\n"
                        + ADMIN + ":" + BCrypt.hashpw(ADMIN_PASSWORD, BCrypt.gensalt(5)) + "\n");
        Map<String, String> properties = new HashMap<>(backend);
        properties.putAll(Map.of(
                "layerfold.auth.mode", "token",
                "layerfold.auth.htpasswd", htpasswd.toString(),
                "layerfold.auth.access[0].repositories[0]", "*",
                "layerfold.auth.access[0].users[0]", USER,
                "layerfold.auth.access[0].actions", "pull,push,delete",
                // The dedup admin endpoint on the management port wants the admin grant.
                "layerfold.auth.access[1].repositories[0]", "*",
                "layerfold.auth.access[1].users[0]", ADMIN,
                "layerfold.auth.access[1].actions", "admin",
                // Every layer the codec reproduces is deduplicated and thinned (the default, said here).
                "layerfold.dedup.mode", "all"));
        List<Path> dataDirs = IntStream.range(0, nodeCount).mapToObj(i -> work.resolve("node-" + i)).toList();
        return new MatrixRegistry(LayerfoldNodes.start(dataDirs, properties));
    }

    /** {@code 127.0.0.1:PORT} of the process clients push to. */
    String pushHost() {
        return nodes.get(0).process().hostAndPort();
    }

    /** {@code 127.0.0.1:PORT} of the process clients pull from (another one, where there are several). */
    String pullHost() {
        return nodes.get(nodes.size() - 1).process().hostAndPort();
    }

    /** Both hosts, once each, for clients that must sign in to every one. */
    List<String> hosts() {
        return pushHost().equals(pullHost()) ? List.of(pushHost()) : List.of(pushHost(), pullHost());
    }

    /** Reads from the pull host, checking every digest. */
    RegistryReader reader() {
        return new RegistryReader(pullHost(), USER, PASSWORD);
    }

    /**
     * Waits until every layer pushed so far was deduplicated (or decided to stay intact): the matrix calls
     * it before every pull, so that pulls rebuild layers from their files. The one place the matrix
     * uses the dedup admin endpoint.
     */
    DedupAdmin.Totals settle() throws IOException, InterruptedException {
        return DedupAdmin.settle(nodes.get(0).process().managementUri(), SETTLE_TIMEOUT, adminAuthorization());
    }

    /** Layers deduplicated so far on this storage (all processes), without waiting for any. */
    long layersDeduplicated() throws IOException, InterruptedException {
        return DedupAdmin.totals(nodes.get(0).process().managementUri(), adminAuthorization()).layersDeduplicated();
    }

    private static String adminAuthorization() {
        return "Basic " + Base64.getEncoder().encodeToString((ADMIN + ":" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws InterruptedException {
        nodes.close();
    }
}
