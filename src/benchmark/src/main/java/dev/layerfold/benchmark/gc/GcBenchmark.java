package dev.layerfold.benchmark.gc;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What online collection costs: a registry holding deleted images (1 GiB of layers by default,
 * {@code -Dlayerfold.benchmark.gc-mib=N}) collects them while a client pulls small blobs of images
 * that stay and pushes new ones. Reports collection time and bytes deleted per GB, deletes per GB, and
 * the small-blob GET and push latency while it collects against the same registry idle, measured in
 * the same run (rounds alternate). Deletes are paced at {@code layerfold.gc.deletes-per-second}
 * (here 200), which sets most of the collection's time by design. Then {@link PackRewriteScenario}:
 * rewriting half-dead packs, in process.
 */
public final class GcBenchmark implements Benchmark {

    private static final String SUITE = "gc";
    private static final int LAYER_SIZE = 4 << 20;
    private static final int SMALL_BLOB = 4 << 10;
    private static final int SMALL_BLOBS = 100;
    private static final int DELETES_PER_SECOND = 200;
    private static final Pattern NUMBER = Pattern.compile("\"%s\"\\s*:\\s*(\\d+)");

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-gc-benchmark-");
        try {
            measure(work, report);
            new PackRewriteScenario().measure(work, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        long mib = Long.getLong("layerfold.benchmark.gc-mib", 1024);
        int layers = (int) (mib * (1 << 20) / LAYER_SIZE);
        Map<String, String> gc = Map.of("layerfold.gc.interval", "0s", "layerfold.gc.grace", "0s",
                "layerfold.gc.deletes-per-second", Integer.toString(DELETES_PER_SECOND), "layerfold.dedup.mode", "off");
        try (RegistryProcess registry = LayerfoldProcess.start("1g", work.resolve("data"), work.resolve("logs"), List.of(), gc);
             BlobClient client = new BlobClient(registry.baseUri());
             HttpClient http = HttpClient.newHttpClient()) {
            Random random = new Random(15);
            List<String> kept = new ArrayList<>();
            for (int i = 0; i < SMALL_BLOBS; i++) {
                kept.add(push(client, "bench/kept", bytes(random, SMALL_BLOB)));
            }
            manifest(http, registry.baseUri(), "bench/kept", "v1", kept);
            for (int image = 0; image * 8 < layers; image++) {
                List<String> digests = new ArrayList<>();
                for (int i = image * 8; i < Math.min(layers, image * 8 + 8); i++) {
                    digests.add(push(client, "bench/deleted", bytes(random, LAYER_SIZE)));
                }
                String manifest = manifest(http, registry.baseUri(), "bench/deleted", "v" + image, digests);
                send(http, HttpRequest.newBuilder(registry.baseUri().resolve("/v2/bench/deleted/manifests/" + manifest)).DELETE());
            }
            System.out.println("pushed and deleted " + layers + " layers of " + LAYER_SIZE + " bytes");

            List<Double> idleGets = new ArrayList<>();
            List<Double> idlePushes = new ArrayList<>();
            clientLoad(client, kept, random, idleGets, idlePushes, 3);

            AtomicBoolean collecting = new AtomicBoolean(true);
            List<Double> busyGets = new ArrayList<>();
            List<Double> busyPushes = new ArrayList<>();
            long start = System.nanoTime();
            CompletableFuture<String> collection = CompletableFuture.supplyAsync(() -> {
                try {
                    String answer = send(http, HttpRequest.newBuilder(registry.managementUri().resolve("/actuator/gc"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"collect\"}")));
                    return answer;
                } finally {
                    collecting.set(false);
                }
            });
            while (collecting.get()) {
                clientLoad(client, kept, random, busyGets, busyPushes, 1);
            }
            String answer = collection.join();
            double seconds = (System.nanoTime() - start) / 1e9;
            long reclaimed = number(answer, "bytesReclaimed");
            long removed = number(answer, "blobsRemoved");
            double gb = reclaimed / 1e9;
            System.out.println("collection: " + answer);
            report.value(SUITE, "collection time per deleted GB", "s", new double[] {seconds / gb});
            report.value(SUITE, "deletes per deleted GB", "ops", new double[] {removed / gb});
            report.value(SUITE, "bytes reclaimed of those deleted", "%", new double[] {100.0 * reclaimed / ((double) layers * LAYER_SIZE)});
            clientLoad(client, kept, random, idleGets, idlePushes, 3);
            report.compare(SUITE, "small-blob GET latency, collecting", "ms", toArray(busyGets), toArray(idleGets),
                    "idle", false);
            report.compare(SUITE, "small-blob push latency, collecting", "ms", toArray(busyPushes), toArray(idlePushes),
                    "idle", false);
        }
    }

    /** Rounds of GETs of every kept blob and a few pushes of new small blobs, timed one by one. */
    private static void clientLoad(BlobClient client, List<String> kept, Random random, List<Double> gets,
                                   List<Double> pushes, int rounds) throws IOException {
        for (int round = 0; round < rounds; round++) {
            for (String digest : kept) {
                long start = System.nanoTime();
                client.pullDiscarding("bench/kept", digest);
                gets.add((System.nanoTime() - start) / 1e6);
            }
            for (int i = 0; i < 10; i++) {
                byte[] blob = bytes(random, SMALL_BLOB);
                long start = System.nanoTime();
                push(client, "bench/pushed", blob);
                pushes.add((System.nanoTime() - start) / 1e6);
            }
        }
    }

    private static String push(BlobClient client, String repository, byte[] blob) throws IOException {
        String digest = sha256(blob);
        client.pushMonolithic(repository, digest, blob.length, new ByteArrayInputStream(blob));
        return digest;
    }

    private static String manifest(HttpClient http, URI registry, String repository, String tag, List<String> layers)
            throws IOException {
        String config = "{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + layers.getFirst()
                + "\",\"size\":1}";
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":"
                + config + ",\"layers\":[" + String.join(",", layers.stream().map(digest -> "{\"mediaType\":"
                + "\"application/octet-stream\",\"digest\":\"" + digest + "\",\"size\":1}").toList()) + "]}";
        send(http, HttpRequest.newBuilder(registry.resolve("/v2/" + repository + "/manifests/" + tag))
                .header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString(manifest)));
        return sha256(manifest.getBytes(StandardCharsets.UTF_8));
    }

    private static String send(HttpClient http, HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IOException(response.statusCode() + " " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long number(String json, String field) {
        Matcher matcher = Pattern.compile(NUMBER.pattern().formatted(field)).matcher(json);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private static double[] toArray(List<Double> samples) {
        return samples.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    private static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
