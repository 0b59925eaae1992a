package dev.layerfold.e2e.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.distributed.LayerfoldNode;
import dev.layerfold.e2e.distributed.LayerfoldNodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bounded soak: clients push images (layers that share files, so dedup runs), delete them, move
 * tags and mount blobs across repositories, on every node, while each node collects garbage every
 * second with a grace of seconds, and nodes are killed with {@code kill -9} and restarted. Afterwards
 * the checker finds nothing wrong and every image still tagged pulls byte-identical; then every image is
 * deleted and collected, the check still finds nothing wrong, and what dedup still stores is printed.
 *
 * <p>Clients retry what a kill interrupted, as real clients do; a manifest refused with
 * MANIFEST_BLOB_UNKNOWN (its blobs were collected meanwhile, which a grace of seconds provokes) is
 * pushed again with its blobs. The seed is printed; {@code -Dlayerfold.e2e.seed=N} repeats the
 * choices, {@code -Dlayerfold.e2e.gc-soak-seconds=N} sets the length (default 60).
 */
abstract class CollectionSoakContract {

    private static final Duration SOAK = Duration.ofSeconds(Long.getLong("layerfold.e2e.gc-soak-seconds", 60));
    private static final Duration KILL_EVERY = Duration.ofSeconds(10);
    private static final Duration RETRY_FOR = Duration.ofMinutes(2);
    private static final Duration GRACES = Duration.ofSeconds(6); // above gc.grace and gc.pack-grace below
    private static final Duration EMPTY_WITHIN = Duration.ofMinutes(2);
    private static final int CLIENTS = 3;
    private static final int TAGS = 3;
    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final String LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, String> QUICK = Map.of(
            "layerfold.gc.interval", "1s",
            "layerfold.gc.grace", "3s",
            "layerfold.gc.unreferenced-file-age", "0s",
            // Packs half dead are rewritten, and the old ones deleted seconds later, while clients pull.
            "layerfold.gc.pack-live-share", "0.5",
            "layerfold.gc.pack-grace", "5s",
            // The default pace (50 deletes a second) spreads the collection of the ~4,000 manifests deleted at
            // the end over some 90 s; what the soak proves is safety under races, which a faster pace only provokes more.
            "layerfold.gc.deletes-per-second", "2000",
            "layerfold.dedup.lease", "6s",
            "layerfold.dedup.claim-time", "10s");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final long seed = Long.getLong("layerfold.e2e.seed", System.nanoTime());
    private final AtomicLong refusedManifests = new AtomicLong();
    private final AtomicLong kills = new AtomicLong();
    private volatile LayerfoldNodes nodes;

    abstract Map<String, String> backend();

    /** How many nodes share the storage. */
    abstract int nodeCount();

    @Test
    void pushesDeletesTagMovesAndMountsAgainstTheCollectorAndKillsLoseNothingTagged(@TempDir Path data) throws Exception {
        System.out.println("gc soak seed " + seed + " for " + SOAK);
        Map<String, String> properties = new HashMap<>(backend());
        properties.putAll(QUICK);
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < nodeCount(); i++) {
            dirs.add(data.resolve("node-" + i));
        }
        nodes = LayerfoldNodes.start(dirs, properties);
        try {
            List<byte[]> layers = layerPool(new Random(seed));
            AtomicBoolean running = new AtomicBoolean(true);
            List<Client> clients = new ArrayList<>();
            List<CompletableFuture<Void>> work = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                Client client = new Client("soak/client-" + i, new Random(seed + i), layers);
                clients.add(client);
                work.add(CompletableFuture.runAsync(() -> client.run(running)));
            }
            CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> killNodes(running, new Random(seed - 1)));
            long deadline = System.nanoTime() + SOAK.toNanos();
            while (System.nanoTime() < deadline && work.stream().noneMatch(CompletableFuture::isDone)) {
                Thread.sleep(500);
            }
            running.set(false);
            killer.join();
            CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).join();

            URI node = nodes.get(0).process().managementUri();
            admin(node, "/actuator/dedup", "{\"timeoutSeconds\":180}");
            long reclaimed = 0;
            long packsRewritten = 0;
            long packBytesReclaimed = 0;
            for (int run = 0; run < 3; run++) {
                JsonNode collected = admin(node, "/actuator/gc", "{\"action\":\"collect\"}");
                reclaimed += collected.path("bytesReclaimed").asLong();
                packsRewritten += collected.path("packsRewritten").asLong();
                packBytesReclaimed += collected.path("packBytesReclaimed").asLong();
            }
            JsonNode check = admin(node, "/actuator/gc", "{\"action\":\"check\"}");
            long pulled = 0;
            for (Client client : clients) {
                pulled += client.verifyEveryTagPulls();
            }
            System.out.printf("gc soak: %d operations, %d kills, %d manifests refused as their blobs were collected, "
                            + "%d tagged images pulled identical, %d bytes reclaimed by the final runs, %d packs rewritten "
                            + "by them reclaiming %d bytes; check (files where the index places them, none in a retired "
                            + "pack): %s%n",
                    clients.stream().mapToLong(c -> c.operations).sum(), kills.get(), refusedManifests.get(), pulled,
                    reclaimed, packsRewritten, packBytesReclaimed, check.path("problemCount"));
            assertThat(check.path("problemCount").asLong()).as(check.toString()).isZero();
            assertThat(pulled).isPositive();

            // Then every manifest goes, and with them everything deduplication stored. The clients delete
            // side by side, as they pushed.
            long deleting = System.nanoTime();
            CompletableFuture.allOf(clients.stream()
                    .map(client -> CompletableFuture.runAsync(client::deleteEveryManifestPushed))
                    .toArray(CompletableFuture[]::new)).join();
            System.out.printf("gc soak: %d manifests deleted in %.1f s%n",
                    clients.stream().mapToInt(c -> c.manifests.size()).sum(), (System.nanoTime() - deleting) / 1e9);
            long collecting = System.nanoTime();
            JsonNode dedup = collectUntilNothingIsStored(node);
            System.out.printf("gc soak: collected everything in %.1f s%n", (System.nanoTime() - collecting) / 1e9);
            JsonNode emptied = admin(node, "/actuator/gc", "{\"action\":\"check\"}");
            System.out.printf("gc soak, everything deleted: check %s; dedup totals %s%n", emptied, dedup);
            assertThat(emptied.path("problemCount").asLong()).as(emptied.toString()).isZero();
            assertThat(emptied.path("manifests").asLong()).as(emptied.toString()).isZero();
            for (String left : List.of("layersDeduplicated", "storedBytes", "uniqueFiles", "fileReferences")) {
                assertThat(dedup.path(left).asLong()).as(left + " of " + dedup).isZero();
            }
        } finally {
            nodes.close();
        }
    }

    private void killNodes(AtomicBoolean running, Random random) {
        try {
            long next = System.nanoTime() + KILL_EVERY.toNanos();
            while (running.get()) {
                if (System.nanoTime() < next) {
                    Thread.sleep(200);
                    continue;
                }
                LayerfoldNode victim = nodes.get(random.nextInt(nodes.size()));
                victim.kill();
                kills.incrementAndGet();
                victim.restart();
                next = System.nanoTime() + KILL_EVERY.toNanos();
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One client: its own repository and tags (so the expected state is known), mounting from the others. */
    private final class Client {
        final String repository;
        final Random random;
        final List<byte[]> layers;
        /** What each tag should pull: the manifest's bytes as pushed. */
        final Map<String, byte[]> tags = new ConcurrentHashMap<>();
        /** Every manifest pushed, tagged or not any more. */
        final Set<String> manifests = ConcurrentHashMap.newKeySet();
        long operations;

        Client(String repository, Random random, List<byte[]> layers) {
            this.repository = repository;
            this.random = random;
            this.layers = layers;
        }

        void run(AtomicBoolean running) {
            try {
                while (running.get()) {
                    operations++;
                    int op = random.nextInt(100);
                    String tag = "t" + random.nextInt(TAGS);
                    if (op < 50 || tags.isEmpty()) {
                        pushImage(tag);
                    } else if (op < 70) {
                        deleteManifestOf(tags.keySet().stream().toList().get(random.nextInt(tags.size())));
                    } else if (op < 85) {
                        byte[] moved = tags.values().stream().toList().get(random.nextInt(tags.size()));
                        // Linked, so its blobs are referenced: a move is never refused.
                        assertThat(putManifest(tag, moved)).as("tag move").isTrue();
                        tags.put(tag, moved);
                    } else {
                        mount(layers.get(random.nextInt(layers.size())), "soak/client-" + random.nextInt(CLIENTS));
                    }
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(repository + " failed", e);
            }
        }

        void pushImage(String tag) throws IOException, InterruptedException {
            List<byte[]> blobs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                blobs.add(layers.get(random.nextInt(layers.size())));
            }
            byte[] config = ("{\"os\":\"linux\",\"n\":" + random.nextLong() + "}").getBytes(StandardCharsets.UTF_8);
            StringBuilder descriptors = new StringBuilder();
            for (byte[] layer : blobs) {
                descriptors.append(descriptors.isEmpty() ? "" : ",").append(descriptor(LAYER, layer));
            }
            byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                    + descriptor("application/vnd.oci.image.config.v1+json", config) + ",\"layers\":[" + descriptors + "]}")
                    .getBytes(StandardCharsets.UTF_8);
            blobs.add(config);
            for (int attempt = 0; ; attempt++) {
                for (byte[] blob : blobs) {
                    pushBlob(blob);
                }
                if (putManifest(tag, manifest)) {
                    tags.put(tag, manifest);
                    manifests.add(digest(manifest));
                    return;
                }
                refusedManifests.incrementAndGet();
                if (attempt > 20) {
                    throw new AssertionError("manifest refused 20 times in a row");
                }
            }
        }

        void pushBlob(byte[] blob) throws IOException, InterruptedException {
            HttpResponse<String> response = send(() -> HttpRequest.newBuilder(uri("/v2/" + repository
                    + "/blobs/uploads/?digest=" + digest(blob))).POST(HttpRequest.BodyPublishers.ofByteArray(blob)));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        }

        /** False if refused because a blob it names was collected meanwhile. */
        boolean putManifest(String tag, byte[] manifest) throws IOException, InterruptedException {
            HttpResponse<String> response = send(() -> HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/" + tag))
                    .header("Content-Type", OCI_MANIFEST).PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)));
            if (response.statusCode() == 400 && response.body().contains("MANIFEST_BLOB_UNKNOWN")) {
                return false;
            }
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            return true;
        }

        void deleteManifestOf(String tag) throws IOException, InterruptedException {
            byte[] manifest = tags.get(tag);
            HttpResponse<String> response = send(() -> HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/"
                    + digest(manifest))).DELETE());
            assertThat(response.statusCode()).as(response.body()).isIn(202, 404);
            // A delete by digest takes every tag of the manifest with it.
            tags.values().removeIf(bytes -> java.util.Arrays.equals(bytes, manifest));
        }

        void deleteEveryManifestPushed() {
            try {
                for (String manifest : manifests) {
                    HttpResponse<String> response = send(() -> HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/"
                            + manifest)).DELETE());
                    assertThat(response.statusCode()).as(response.body()).isIn(202, 404);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(repository + " failed to delete", e);
            }
            tags.clear();
        }

        void mount(byte[] layer, String from) throws IOException, InterruptedException {
            HttpResponse<String> response = send(() -> HttpRequest.newBuilder(uri("/v2/" + repository
                    + "/blobs/uploads/?mount=" + digest(layer) + "&from=" + from)).POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(response.statusCode()).as(response.body()).isIn(201, 202);
        }

        long verifyEveryTagPulls() throws IOException, InterruptedException {
            for (Map.Entry<String, byte[]> tag : tags.entrySet()) {
                HttpResponse<byte[]> manifest = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/"
                        + tag.getKey())).header("Accept", OCI_MANIFEST).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(manifest.statusCode()).as(repository + ":" + tag.getKey()).isEqualTo(200);
                assertThat(manifest.body()).isEqualTo(tag.getValue());
                JsonNode parsed = JSON.readTree(manifest.body());
                List<String> digests = new ArrayList<>(List.of(parsed.get("config").get("digest").stringValue()));
                parsed.get("layers").forEach(layer -> digests.add(layer.get("digest").stringValue()));
                for (String digest : digests) {
                    HttpResponse<byte[]> blob = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/" + digest))
                            .build(), HttpResponse.BodyHandlers.ofByteArray());
                    assertThat(blob.statusCode()).as(repository + " " + digest).isEqualTo(200);
                    assertThat(digest(blob.body())).isEqualTo(digest);
                }
            }
            return tags.size();
        }

        private URI uri(String path) {
            return nodes.get(random.nextInt(nodes.size())).process().baseUri().resolve(path);
        }
    }

    /**
     * Collects, a grace apart (what a run condemns, a later run deletes; retired packs wait for their
     * grace), until the dedup totals count nothing stored or {@link #EMPTY_WITHIN} passed since dedup
     * last had work; the last totals. A layer deduplicated after its image was deleted becomes a
     * candidate at its commit, so only the runs after the backlog drained can be expected to take it.
     */
    private JsonNode collectUntilNothingIsStored(URI node) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + EMPTY_WITHIN.toNanos();
        long hardDeadline = deadline + 2 * EMPTY_WITHIN.toNanos();
        int runs = 0;
        while (true) {
            admin(node, "/actuator/gc", "{\"action\":\"collect\"}");
            runs++;
            JsonNode settle = admin(node, "/actuator/dedup", "{\"timeoutSeconds\":60}");
            JsonNode totals = settle.get("totals");
            if (!settle.path("settled").asBoolean()) {
                deadline = Math.min(hardDeadline, System.nanoTime() + EMPTY_WITHIN.toNanos());
            }
            boolean empty = List.of("layersDeduplicated", "storedBytes", "uniqueFiles").stream()
                    .allMatch(left -> totals.path(left).asLong() == 0);
            if (empty || System.nanoTime() > deadline) {
                System.out.printf("gc soak: %d collections after every image was deleted%n", runs);
                return totals;
            }
            Thread.sleep(GRACES.toMillis());
        }
    }

    /** Sends, retrying on a node that was killed or is restarting (connection failures and 5xx). */
    private HttpResponse<String> send(RequestMaker request) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RETRY_FOR.toNanos();
        while (true) {
            try {
                HttpResponse<String> response = http.send(request.make().timeout(Duration.ofSeconds(60)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() < 500) {
                    return response;
                }
            } catch (IOException | IllegalStateException nodeDown) {
                if (System.nanoTime() > deadline) {
                    throw nodeDown;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no node answered within " + RETRY_FOR);
            }
            Thread.sleep(200);
        }
    }

    @FunctionalInterface
    private interface RequestMaker {
        HttpRequest.Builder make();
    }

    private JsonNode admin(URI node, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(node.resolve(path))
                .header("Content-Type", "application/json").timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** Gzip'd tars drawing their files from one pool, so layers share files and dedup has work. */
    private static List<byte[]> layerPool(Random random) throws IOException {
        List<byte[]> files = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            byte[] content = new byte[4_000 + random.nextInt(20_000)];
            for (int j = 0; j < content.length; j++) {
                content[j] = (byte) ('a' + random.nextInt(12));
            }
            files.add(content);
        }
        List<byte[]> layers = new ArrayList<>();
        for (int layer = 0; layer < 8; layer++) {
            ByteArrayOutputStream blob = new ByteArrayOutputStream();
            try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob))) {
                for (int i = 0; i < 6; i++) {
                    int file = random.nextInt(files.size());
                    TarArchiveEntry entry = new TarArchiveEntry("layer-" + layer + "/file-" + i + "-" + file);
                    entry.setSize(files.get(file).length);
                    tar.putArchiveEntry(entry);
                    tar.write(files.get(file));
                    tar.closeArchiveEntry();
                }
            }
            layers.add(blob.toByteArray());
        }
        return layers;
    }

    private static String descriptor(String mediaType, byte[] blob) {
        return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + digest(blob) + "\",\"size\":" + blob.length + "}";
    }

    private static String digest(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
