package dev.layerfold.e2e.process;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A registry running as its own OS process on a loopback port, ready once {@code GET /v2/} answered 200
 * (or 401, when it requires sign-in); Layerfold's also has a management port (health, metrics, admin actions).
 * Its output goes to a log file; closing stops the process (and a JVM shutdown hook does, if nobody closed it).
 */
public final class RegistryProcess implements AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int LOG_TAIL_LINES = 60;

    private final String name;
    private final Process process;
    private final String scheme;
    private final int port;
    private final OptionalInt managementPort;
    private final Path dataDir;
    private final Path log;
    private final Thread killOnExit;

    private RegistryProcess(String name, Process process, String scheme, int port, OptionalInt managementPort, Path dataDir,
                            Path log) {
        this.name = name;
        this.process = process;
        this.scheme = scheme;
        this.port = port;
        this.managementPort = managementPort;
        this.dataDir = dataDir;
        this.log = log;
        this.killOnExit = new Thread(process::destroyForcibly, "stop " + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts {@code command}, which must serve the registry on {@code port} (and its management plane on
     * {@code managementPort}, if it has one), with {@code environment} on top of this JVM's, and waits until it answers.
     */
    static RegistryProcess start(String name, List<String> command, Map<String, String> environment, int port,
                                 OptionalInt managementPort, Path dataDir, Path log) throws IOException, InterruptedException {
        return start(name, command, environment, "http", port, managementPort, dataDir, log);
    }

    /** Like the other, with the registry port speaking {@code scheme} ({@code https} for TLS). */
    static RegistryProcess start(String name, List<String> command, Map<String, String> environment, String scheme, int port,
                                 OptionalInt managementPort, Path dataDir, Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        RegistryProcess registry = new RegistryProcess(name, process, scheme, port, managementPort, dataDir, log);
        try {
            registry.awaitReady();
            return registry;
        } catch (IOException | InterruptedException | RuntimeException e) {
            registry.close();
            throw e;
        }
    }

    /** {@code http://127.0.0.1:PORT} ({@code https} with TLS), the base of every API path. */
    public URI baseUri() {
        return URI.create(scheme + "://" + hostAndPort());
    }

    /**
     * {@code http://127.0.0.1:MANAGEMENT_PORT}, the base of {@code /actuator/...}: health, metrics and the
     * admin actions, which the registry port does not serve.
     */
    public URI managementUri() {
        return URI.create("http://127.0.0.1:" + managementPort.orElseThrow(() -> new IllegalStateException(
                name + " has no management port")));
    }

    /** {@code 127.0.0.1:PORT}, as image references name the registry. */
    public String hostAndPort() {
        return "127.0.0.1:" + port;
    }

    public String name() {
        return name;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path log() {
        return log;
    }

    /**
     * CPU time (user and system) the process has used so far: what a benchmark compares when the
     * machine is shared and wall time would measure the neighbours as much as the registry.
     */
    public Duration cpuTime() {
        return process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                "this platform does not report the CPU time of process " + process.pid()));
    }

    /** Whether the process is still running (a registry out of memory exits). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of the process's output, for failure messages. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(log " + log + " unreadable: " + e + ")";
        }
    }

    /**
     * Waits for the registry port's {@code GET /v2/} (200, or 401 when sign-in is required), then for
     * the management port to answer at all: it starts a moment after the registry port.
     */
    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        try (HttpClient http = probeClient()) {
            awaitAnswer(http, baseUri().resolve("/v2/"), deadline, status -> status == 200 || status == 401);
            if (managementPort.isPresent()) {
                awaitAnswer(http, managementUri().resolve("/actuator/health"), deadline, status -> true);
            }
        }
    }

    private void awaitAnswer(HttpClient http, URI probe, long deadline, IntPredicate ready)
            throws IOException, InterruptedException {
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " before answering GET " + probe + "; its log " + log + " ends with:\n" + logTail());
            }
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ready.test(response.statusCode())) {
                    return;
                }
            } catch (ConnectException | java.net.http.HttpTimeoutException notListeningYet) {
                // still starting
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not answer GET " + probe + " as expected within "
                        + STARTUP_TIMEOUT.toSeconds() + " s; its log " + log + " ends with:\n" + logTail());
            }
            Thread.sleep(100);
        }
    }

    /**
     * The readiness probe's client: over TLS it asks only whether the port answers, so it trusts any
     * certificate (the tests check the certificate with their real clients).
     */
    private HttpClient probeClient() {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (scheme.equals("https")) {
            try {
                SSLContext anyCertificate = SSLContext.getInstance("TLS");
                anyCertificate.init(null, new TrustManager[] {new X509TrustManager() {
                    @Override
                    public void checkClientTrusted(X509Certificate[] chain, String authType) {
                    }

                    @Override
                    public void checkServerTrusted(X509Certificate[] chain, String authType) {
                    }

                    @Override
                    public X509Certificate[] getAcceptedIssuers() {
                        return new X509Certificate[0];
                    }
                }}, null);
                builder.sslContext(anyCertificate);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return builder.build();
    }

    /** Kills the process as {@code kill -9} does, giving it no chance to clean up, and waits until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Stops the process: politely first, forcibly if it does not exit in time. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException jvmAlreadyExiting) {
            // the hook is running or about to; nothing left to undo
        }
    }

    @Override
    public String toString() {
        return name + " at " + baseUri() + " (pid " + process.pid() + ", log " + log + ")";
    }
}
