package dev.layerfold.benchmark.notification;

import com.sun.net.httpserver.HttpServer;
import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What notifications cost the API, and that a dead or slow endpoint costs it nothing more: Layerfold
 * without notifications, Layerfold notifying one live endpoint, and Layerfold notifying that live one
 * plus one whose port refuses connections and one that answers after longer than its timeout; all
 * started here, same client, each round in another order. A manifest PUT writes its event to the
 * outbox before it answers (one commit for all endpoints); a blob GET hands its event to the buffered
 * writer.
 */
public final class NotificationsBenchmark implements Benchmark {

    private static final String SUITE = "notify";
    private static final String HEAP = "512m";
    private static final String REPOSITORY = "bench/notify";
    private static final int BLOBS = 250;
    private static final int BLOB_SIZE = 4 << 10;
    private static final int MANIFESTS_PER_ROUND = 100;
    private static final int WARMUP_ROUNDS = 2;
    private static final int MEASURED_ROUNDS = 6;
    private static final String ARTIFACT = "application/vnd.oci.image.manifest.v1+json";

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-notify-benchmark-");
        try {
            measure(work, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        AtomicLong received = new AtomicLong();
        HttpServer live = receiver(exchange -> received.incrementAndGet(), 0);
        HttpServer slow = receiver(exchange -> { }, 3_000);
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = socket.getLocalPort();
        }
        Map<String, String> liveOnly = Map.of(
                "layerfold.notifications.endpoints[0].name", "live",
                "layerfold.notifications.endpoints[0].url", "http://127.0.0.1:" + live.getAddress().getPort() + "/",
                "layerfold.notifications.endpoints[0].secret", "benchmark-secret");
        Map<String, String> withDeadAndSlow = new java.util.HashMap<>(liveOnly);
        withDeadAndSlow.putAll(Map.of(
                "layerfold.notifications.endpoints[1].name", "dead",
                "layerfold.notifications.endpoints[1].url", "http://127.0.0.1:" + deadPort + "/",
                "layerfold.notifications.endpoints[2].name", "slow",
                "layerfold.notifications.endpoints[2].url", "http://127.0.0.1:" + slow.getAddress().getPort() + "/",
                "layerfold.notifications.endpoints[2].timeout", "1s"));
        Path logs = work.resolve("logs");
        try (RegistryProcess quiet = LayerfoldProcess.start(HEAP, work.resolve("quiet"), logs);
             RegistryProcess notifying = LayerfoldProcess.start(HEAP, work.resolve("live"), logs, List.of(), liveOnly);
             RegistryProcess deadAndSlow = LayerfoldProcess.start(HEAP, work.resolve("dead"), logs, List.of(), withDeadAndSlow);
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<RegistryProcess> registries = List.of(quiet, notifying, deadAndSlow);
            List<BlobClient> clients = registries.stream().map(registry -> new BlobClient(registry.baseUri())).toList();
            try {
                Random random = new Random(11);
                List<String> digests = new ArrayList<>();
                for (int i = 0; i < BLOBS; i++) {
                    byte[] blob = new byte[BLOB_SIZE];
                    random.nextBytes(blob);
                    String digest = sha256(blob);
                    digests.add(digest);
                    for (BlobClient client : clients) {
                        client.pushMonolithic(REPOSITORY, digest, BLOB_SIZE, new ByteArrayInputStream(blob));
                    }
                }
                byte[] empty = "{}".getBytes(StandardCharsets.UTF_8);
                for (BlobClient client : clients) {
                    client.pushMonolithic(REPOSITORY, sha256(empty), empty.length, new ByteArrayInputStream(empty));
                }
                List<List<Double>> gets = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                List<List<Double>> puts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                int manifest = 0;
                for (int round = 0; round < WARMUP_ROUNDS + MEASURED_ROUNDS; round++) {
                    boolean counted = round >= WARMUP_ROUNDS;
                    for (int turn = 0; turn < registries.size(); turn++) {
                        int which = (round + turn) % registries.size();
                        getAll(clients.get(which), digests, counted ? gets.get(which) : null);
                        putManifests(http, registries.get(which).baseUri(), digests.getFirst(), sha256(empty), manifest,
                                counted ? puts.get(which) : null);
                    }
                    manifest += MANIFESTS_PER_ROUND;
                    System.out.println((counted ? "measured" : "warm-up") + " round " + (round + 1)
                            + "; the live endpoint got " + received.get() + " requests");
                }
                report.compare(SUITE, "manifest PUT latency, 1 live endpoint vs none", "ms",
                        doubles(puts.get(1)), doubles(puts.get(0)), "layerfold without notifications", false);
                report.compare(SUITE, "manifest PUT latency, +1 dead +1 slow endpoint vs 1 live", "ms",
                        doubles(puts.get(2)), doubles(puts.get(1)), "layerfold with 1 live endpoint", false);
                report.compare(SUITE, "small-blob GET latency, 1 live endpoint vs none", "ms",
                        doubles(gets.get(1)), doubles(gets.get(0)), "layerfold without notifications", false);
                report.compare(SUITE, "small-blob GET latency, +1 dead +1 slow endpoint vs 1 live", "ms",
                        doubles(gets.get(2)), doubles(gets.get(1)), "layerfold with 1 live endpoint", false);
            } finally {
                clients.forEach(BlobClient::close);
            }
        } finally {
            live.stop(0);
            slow.stop(0);
        }
    }

    private static HttpServer receiver(java.util.function.Consumer<Object> onRequest, long answerAfterMillis) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            if (answerAfterMillis > 0) {
                try {
                    Thread.sleep(answerAfterMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            onRequest.accept(exchange);
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static void getAll(BlobClient client, List<String> digests, List<Double> latencies) throws IOException {
        for (String digest : digests) {
            long start = System.nanoTime();
            long size = client.pullDiscarding(REPOSITORY, digest);
            double millis = (System.nanoTime() - start) / 1e6;
            if (size != BLOB_SIZE) {
                throw new IllegalStateException("served " + size + " bytes of " + digest);
            }
            if (latencies != null) {
                latencies.add(millis);
            }
        }
    }

    /** Artifact manifests, each of its own (an annotation numbers them) and pushed by a tag of its own. */
    private static void putManifests(HttpClient http, URI registry, String layer, String emptyConfig, int first,
                                     List<Double> latencies) throws IOException, InterruptedException {
        for (int i = first; i < first + MANIFESTS_PER_ROUND; i++) {
            String manifest = """
                    {"schemaVersion":2,"mediaType":"%s","artifactType":"application/vnd.example.bench",\
                    "config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"%s","size":2},\
                    "layers":[{"mediaType":"application/vnd.example.bench.blob","digest":"%s","size":%d}],\
                    "annotations":{"n":"%d"}}""".formatted(ARTIFACT, emptyConfig, layer, BLOB_SIZE, i);
            long start = System.nanoTime();
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(registry.resolve(
                            "/v2/" + REPOSITORY + "/manifests/t-" + i)).header("Content-Type", ARTIFACT)
                    .PUT(HttpRequest.BodyPublishers.ofString(manifest)).build(), HttpResponse.BodyHandlers.discarding());
            double millis = (System.nanoTime() - start) / 1e6;
            if (response.statusCode() != 201) {
                throw new IllegalStateException("manifest PUT answered " + response.statusCode());
            }
            if (latencies != null) {
                latencies.add(millis);
            }
        }
    }

    private static double[] doubles(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
