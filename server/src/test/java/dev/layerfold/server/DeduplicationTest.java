package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.github.luben.zstd.ZstdOutputStream;
import dev.layerfold.predictor.PullLearner;
import dev.layerfold.registry.blob.PullCounter;
import dev.layerfold.registry.usage.RepositoryPullCounter;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.ImageRef;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dedup pipeline in the assembled registry, on the embedded backend (and, in a subclass, on S3 +
 * Redis): layers pushed through the API are split off the push path, their shared files stored once,
 * their intact blobs removed after the rebuild was proven, and every pull still returns the exact
 * bytes pushed; a manifest GET has its thinned layers rebuilt into a tier before their GET.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DeduplicationTest {

    private static final String LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    private static final String ZSTD_LAYER = "application/vnd.oci.image.layer.v1.tar+zstd";
    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void storeDataInATemporaryDirectory(DynamicPropertyRegistry properties) {
        properties.add("layerfold.storage.path", data::toString);
        // Collections run when a test asks, and take everything unreferenced at once.
        properties.add("layerfold.gc.interval", () -> "0s");
        properties.add("layerfold.gc.grace", () -> "0s");
        properties.add("layerfold.gc.unreferenced-file-age", () -> "0s");
        properties.add("layerfold.gc.retention[0].repositories", () -> "retention/*");
        properties.add("layerfold.gc.retention[0].untagged-after", () -> "0s");
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    BlobStore blobStore;

    @Autowired
    PullCounter pullCounter;

    @Autowired
    MetadataStore metadataStore;

    @Autowired
    GcIndex gcIndex;

    @Autowired
    LayerPulls layerPulls;

    @Autowired
    MeterRegistry meters;

    @Autowired
    PullLearner learner;

    @Autowired
    ImageLayers imageLayers;

    @Autowired
    RepositoryPullCounter repositoryPulls;

    @Autowired
    UsageUpkeep usageUpkeep;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void layersSharingFilesAreStoredOnceAndPullByteForByte() throws Exception {
        Map<String, byte[]> base = files(new Random(1), "usr/lib/", 40, 20_000);
        byte[] shared = layer(base, Map.of());
        byte[] extended = layer(base, files(new Random(2), "app/", 5, 50_000));
        byte[] notGzip = "not a layer at all, but pushed as one".getBytes(StandardCharsets.UTF_8);

        JsonNode before = settle().get("totals");
        push("team/base", shared);
        push("team/app", extended, shared, notGzip);
        JsonNode settled = settle();

        assertThat(settled.get("settled").asBoolean()).isTrue();
        JsonNode after = settled.get("totals");
        assertThat(added(before, after, "layersDeduplicated")).isEqualTo(2);
        assertThat(after.get("layersIntact").get("damaged").asLong()).isEqualTo(1);
        assertThat(added(before, after, "uniqueFiles")).as("the base files are stored once").isEqualTo(45);
        assertThat(added(before, after, "storedBytes")).isLessThan(extended.length);
        assertThat(blobStore.size(Digest.sha256(extended))).as("the intact copy was removed").isEmpty();
        assertThat(blobStore.size(Digest.sha256(notGzip))).isPresent();

        for (byte[] layer : List.of(shared, extended, notGzip)) {
            HttpResponse<byte[]> pulled = get("team/app", layer, null);
            assertThat(pulled.statusCode()).isEqualTo(200);
            assertThat(Digest.sha256(pulled.body())).isEqualTo(Digest.sha256(layer));
            assertThat(pulled.headers().firstValueAsLong("Content-Length")).hasValue(layer.length);
        }
        HttpResponse<byte[]> range = get("team/app", extended, "bytes=1000-1999");
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(Arrays.copyOfRange(extended, 1000, 2000));
        HttpResponse<String> head = http.send(HttpRequest.newBuilder(blobUri("team/base", shared))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(shared.length);

        pullCounter.flush();
        LayerHeat pulls = layerPulls.heat(Digest.sha256(extended)).orElseThrow();
        assertThat(pulls.pullsAt(pulls.atMillis())).as("the whole GET counts; the range and the HEAD do not")
                .isCloseTo(1.0, within(0.01));
    }

    /**
     * Each repository's figures follow its pushes, its pulls and the deduplication of its layers, and
     * they add up: what every repository alone holds plus what they share, once, is the registry's
     * stored total, which grew by exactly what deduplication stored plus the blobs left intact.
     */
    @Test
    void everyRepositoryIsAccountedForAndTheFiguresAddUpToWhatIsStored() throws Exception {
        Map<String, byte[]> base = files(new Random(301), "usr/lib/acct/", 30, 20_000);
        byte[] shared = layer(base, Map.of());
        byte[] extended = layer(base, files(new Random(302), "acct/", 4, 50_000));
        byte[] odd = "accounting: not a layer, so it stays intact".getBytes(StandardCharsets.UTF_8);
        JsonNode dedupBefore = settle().get("totals");
        JsonNode usageBefore = usage("?order=name&limit=1000").get("totals");

        push("acct/base", shared);
        Digest app = push("acct/app", extended, shared, odd);
        JsonNode dedupAfter = settle().get("totals");
        assertThat(http.send(HttpRequest.newBuilder(uri("/v2/acct/app/manifests/" + app)).header("Accept", OCI_MANIFEST).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        repositoryPulls.flush();

        JsonNode all = usage("?order=name&limit=1000");
        JsonNode totals = all.get("totals");
        long freed = 0;
        for (JsonNode repository : all.get("repositories")) {
            freed += repository.get("freedIfDeletedBytes").asLong();
        }
        assertThat(all.get("complete").asBoolean()).isTrue();
        assertThat(freed + totals.get("sharedStoredBytes").asLong()).as("each repository's own bytes plus the shared ones, once")
                .isEqualTo(totals.get("storedBytes").asLong());
        long newLogical = added(usageBefore, totals, "logicalBytes");
        long newConfigs = newLogical - shared.length - extended.length - odd.length;
        assertThat(newConfigs).as("the two configs, unless other repositories hold them already").isBetween(0L, 200L);
        assertThat(added(usageBefore, totals, "storedBytes")).as("what deduplication stored, plus the intact blobs")
                .isEqualTo(added(dedupBefore, dedupAfter, "storedBytes") + odd.length + newConfigs);

        JsonNode appFigures = usage("/acct/app");
        JsonNode baseFigures = usage("/acct/base");
        assertThat(appFigures.get("sharedBytes").asLong()).as("the shared layer, and any config").isGreaterThanOrEqualTo(shared.length);
        assertThat(appFigures.get("exclusiveBytes").asLong()).isGreaterThanOrEqualTo(extended.length + odd.length);
        assertThat(appFigures.get("savedBytes").asLong()).as("deduplication saves on its layers").isPositive();
        assertThat(appFigures.get("storedBytes").asLong()).isLessThan(appFigures.get("logicalBytes").asLong());
        assertThat(appFigures.get("pushes").asLong()).isEqualTo(1);
        assertThat(appFigures.get("pulls").asLong()).isEqualTo(1);
        assertThat(baseFigures.get("logicalBytes").asLong()).isGreaterThanOrEqualTo(shared.length);
        assertThat(baseFigures.get("freedIfDeletedBytes").asLong()).as("everything it holds, acct/app holds too").isLessThan(100);

        JsonNode byStored = usage("?order=stored&limit=2");
        assertThat(byStored.get("repositories")).hasSize(2);
        assertThat(byStored.get("repositories").get(0).get("storedBytes").asLong())
                .isGreaterThanOrEqualTo(byStored.get("repositories").get(1).get("storedBytes").asLong());
        assertThat(byStored.get("next").asString()).isEqualTo("?order=stored&offset=2&limit=2");
        usageUpkeep.upkeep();
        assertThat(meters.get("layerfold.usage.stored").gauge().value()).isEqualTo(totals.get("storedBytes").asDouble());
    }

    private JsonNode usage(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(management("/actuator/usage" + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** A tar+zstd layer libzstd 1.5.7 wrote (zstd-jni's stream, as a Java tool calling the library writes it). */
    @Test
    void aZstdLayerSharesItsFilesWithAGzipLayerAndPullsByteForByte() throws Exception {
        Map<String, byte[]> base = files(new Random(31), "usr/share/", 30, 20_000);
        byte[] gzip = layer(base, Map.of());
        byte[] zstd = zstd(tar(base, files(new Random(32), "opt/", 3, 40_000)));

        JsonNode before = settle().get("totals");
        push("zstd/base", gzip);
        push("zstd/app", ZSTD_LAYER, zstd);
        JsonNode after = settle().get("totals");

        assertThat(added(before, after, "layersDeduplicated")).isEqualTo(2);
        assertThat(added(before, after, "uniqueFiles")).as("the gzip layer's files are not stored again").isEqualTo(33);
        assertThat(blobStore.size(Digest.sha256(zstd))).as("the intact copy was removed").isEmpty();
        HttpResponse<byte[]> pulled = get("zstd/app", zstd, null);
        assertThat(pulled.statusCode()).isEqualTo(200);
        assertThat(pulled.body()).isEqualTo(zstd);
        HttpResponse<byte[]> range = get("zstd/app", zstd, "bytes=100-1099");
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(Arrays.copyOfRange(zstd, 100, 1100));
    }

    @Test
    void aThinnedLayerCanBeMountedAndReferencedByANewManifest() throws Exception {
        byte[] layer = layer(files(new Random(3), "opt/", 10, 10_000), Map.of());
        push("mount/source", layer);
        settle();
        assertThat(blobStore.size(Digest.sha256(layer))).isEmpty();

        HttpResponse<String> mount = http.send(HttpRequest.newBuilder(uri("/v2/mount/target/blobs/uploads/?mount="
                + Digest.sha256(layer) + "&from=mount/source")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(mount.statusCode()).isEqualTo(201);
        pushManifest("mount/target", List.of(layer));

        assertThat(Digest.sha256(get("mount/target", layer, null).body())).isEqualTo(Digest.sha256(layer));
    }

    @Test
    void aDeletedDeduplicatedImageGivesBackItsFilesAndTheCheckFindsNothing() throws Exception {
        Map<String, byte[]> base = files(new Random(4), "srv/", 20, 10_000);
        byte[] kept = layer(base, Map.of());
        byte[] deleted = layer(base, files(new Random(5), "srv/only-in-deleted/", 3, 30_000));
        push("gc/kept", kept);
        Digest manifest = push("gc/deleted", deleted);
        settle();
        assertThat(blobStore.size(Digest.sha256(deleted))).as("thinned").isEmpty();

        HttpResponse<String> delete = http.send(HttpRequest.newBuilder(uri("/v2/gc/deleted/manifests/" + manifest))
                .DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(delete.statusCode()).isEqualTo(202);
        JsonNode collected = gc("{\"action\":\"collect\"}");
        if (collected.get("rebuiltReferences").asBoolean()) {
            collected = gc("{\"action\":\"collect\"}");
        }

        assertThat(collected.get("layersReleased").asLong()).isEqualTo(1);
        assertThat(collected.get("filesForgotten").asLong()).as("the files only the deleted layer held").isEqualTo(3);
        assertThat(collected.get("bytesReclaimed").asLong()).isPositive();
        assertThat(get("gc/deleted", deleted, null).statusCode()).isEqualTo(404);
        assertThat(Digest.sha256(get("gc/kept", kept, null).body())).isEqualTo(Digest.sha256(kept));
        JsonNode check = gc("{\"action\":\"check\"}");
        assertThat(check.get("problemCount").asLong()).as(check.toString()).isZero();
        assertThat(check.get("deduplicatedLayers").asLong()).isPositive();
    }

    @Test
    void retentionFromTheConfigurationSaysWhatItWouldRemoveThenRemovesIt() throws Exception {
        push("retention/app", layer(files(new Random(6), "old/", 2, 1_000), Map.of()));
        push("retention/app", layer(files(new Random(7), "new/", 2, 1_000), Map.of()));
        // Each push moves the tag "latest": the two images before the last are left untagged.
        pushManifest("retention/app", List.of());
        JsonNode dryRun = gc("{\"action\":\"retention\",\"dryRun\":true}");
        assertThat(dryRun.get("dryRun").asBoolean()).isTrue();

        JsonNode applied = gc("{\"action\":\"retention\"}");

        assertThat(applied.get("manifests")).isEqualTo(dryRun.get("manifests"));
        assertThat(applied.get("manifests")).as(applied.toString()).hasSize(2);
    }

    private JsonNode gc(String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(management("/actuator/gc"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void aManifestGetHasItsThinnedLayerRebuiltIntoATierBeforeTheLayerGet() throws Exception {
        byte[] layer = layer(files(new Random(4), "srv/", 10, 10_000), Map.of());
        push("predicted/app", layer);
        settle();

        assertTheManifestGetHasTheLayerReadyBeforeItsGet("predicted/app", layer);
    }

    @Test
    void anImageTheMapLostIsMappedAgainFromItsStoredManifestAtItsFirstGet() throws Exception {
        byte[] layer = layer(files(new Random(5), "opt/", 10, 10_000), Map.of());
        Digest manifest = push("forgotten/app", layer);
        settle();
        // What a Redis that lost the map, or a registry that ran with the predictor off, leaves.
        imageLayers.remove(new ImageRef(RepositoryName.of("forgotten/app"), manifest));

        assertTheManifestGetHasTheLayerReadyBeforeItsGet("forgotten/app", layer);
    }

    private void assertTheManifestGetHasTheLayerReadyBeforeItsGet(String repository, byte[] layer) throws Exception {
        assertThat(blobStore.size(Digest.sha256(layer))).isEmpty();
        double fromTiersOrCopy = served("memory") + served("disk") + served("intact");
        double rebuiltOnDemand = served("rebuilt");

        HttpResponse<byte[]> manifest = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/latest")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(manifest.statusCode()).isEqualTo(200);
        learner.caughtUp().get(2, TimeUnit.MINUTES);
        HttpResponse<byte[]> pulled = get(repository, layer, null);

        assertThat(Digest.sha256(pulled.body())).isEqualTo(Digest.sha256(layer));
        // The fetch ahead rebuilt the layer into a tier, and (RestoreOnce) kept an intact copy in the store:
        // the GET is served from either, whichever it finds first, and is not rebuilt.
        assertThat(served("memory") + served("disk") + served("intact") - fromTiersOrCopy)
                .as("served from a tier or the kept copy").isEqualTo(1);
        assertThat(served("rebuilt") - rebuiltOnDemand).as("not rebuilt on demand").isZero();
    }

    private double served(String source) {
        return meters.get("layerfold.predictor.requests").tag("source", source).counter().count();
    }

    @Test
    void layersOfAManifestThatWasNeverQueuedAreQueuedByABackfillAndDeduplicated() throws Exception {
        RepositoryName repository = RepositoryName.of("backfill/app");
        byte[] layer = layer(files(new Random(8), "var/", 6, 20_000), Map.of());
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/?digest="
                + Digest.sha256(layer))).POST(HttpRequest.BodyPublishers.ofByteArray(layer)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(201);
        // What a registry that ran with dedup off, or a Redis that lost its queue, leaves: a manifest
        // stored, referenced and linked, and its layer never queued.
        byte[] manifest = manifest(repository.toString(), List.of(layer));
        Digest digest = Digest.sha256(manifest);
        blobStore.startUpload("backfill-manifest");
        blobStore.append("backfill-manifest", new ByteArrayInputStream(manifest));
        blobStore.publish("backfill-manifest", digest);
        gcIndex.reference(repository, digest, List.of(Digest.sha256(layer), digest));
        metadataStore.linkManifest(repository, new ManifestRecord(digest, OCI_MANIFEST, manifest.length));

        JsonNode backfilled = post("/actuator/dedup/backfill", "{}");
        assertThat(backfilled.get("layersQueued").asLong()).as(backfilled.toString()).isEqualTo(1);
        settle();

        assertThat(blobStore.size(Digest.sha256(layer))).as("thinned").isEmpty();
        assertThat(Digest.sha256(get(repository.toString(), layer, null).body())).isEqualTo(Digest.sha256(layer));
        assertThat(post("/actuator/dedup/backfill", "{}").get("layersQueued").asLong()).as("done already").isZero();
    }

    private JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(management(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static long added(JsonNode before, JsonNode after, String field) {
        return after.get(field).asLong() - before.get(field).asLong();
    }

    private static Map<String, byte[]> files(Random random, String prefix, int count, int size) {
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            byte[] content = new byte[size + random.nextInt(size)];
            // Text-like content: compressible, as most files in images are.
            for (int j = 0; j < content.length; j++) {
                content[j] = (byte) ('a' + random.nextInt(16));
            }
            files.put(prefix + "file-" + i, content);
        }
        return files;
    }

    /** A gzip'd tar as Java tools (Jib) write it: zlib level 6 through GZIPOutputStream. */
    private static byte[] layer(Map<String, byte[]> first, Map<String, byte[]> second) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(blob)) {
            gzip.write(tar(first, second));
        }
        return blob.toByteArray();
    }

    /** {@code tar} through zstd-jni's stream at level 3. */
    private static byte[] zstd(byte[] tar) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (OutputStream zstd = new ZstdOutputStream(blob, 3)) {
            zstd.write(tar);
        }
        return blob.toByteArray();
    }

    private static byte[] tar(Map<String, byte[]> first, Map<String, byte[]> second) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(blob)) {
            for (Map<String, byte[]> files : List.of(first, second)) {
                for (Map.Entry<String, byte[]> file : files.entrySet()) {
                    TarArchiveEntry entry = new TarArchiveEntry(file.getKey());
                    entry.setSize(file.getValue().length);
                    tar.putArchiveEntry(entry);
                    tar.write(file.getValue());
                    tar.closeArchiveEntry();
                }
            }
        }
        return blob.toByteArray();
    }

    /** Pushes the layers and a manifest of them; returns the manifest's digest. */
    private Digest push(String repository, byte[]... layers) throws Exception {
        return push(repository, LAYER, layers);
    }

    /** Pushes the layers and a manifest of them, all of {@code mediaType}; returns the manifest's digest. */
    private Digest push(String repository, String mediaType, byte[]... layers) throws Exception {
        for (byte[] layer : layers) {
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/?digest="
                    + Digest.sha256(layer))).POST(HttpRequest.BodyPublishers.ofByteArray(layer)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        }
        return pushManifest(repository, List.of(layers), mediaType);
    }

    private Digest pushManifest(String repository, List<byte[]> layers) throws Exception {
        return pushManifest(repository, layers, LAYER);
    }

    private Digest pushManifest(String repository, List<byte[]> layers, String mediaType) throws Exception {
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/latest"))
                .header("Content-Type", OCI_MANIFEST)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest(repository, layers, mediaType))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        return Digest.parse(put.headers().firstValue("Docker-Content-Digest").orElseThrow());
    }

    private byte[] manifest(String repository, List<byte[]> layers) throws Exception {
        return manifest(repository, layers, LAYER);
    }

    /** An image manifest of the layers, all of {@code mediaType}, with a config it pushes first. */
    private byte[] manifest(String repository, List<byte[]> layers, String mediaType) throws Exception {
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"layers\":" + layers.size() + "}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> configPut = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/?digest="
                + Digest.sha256(config))).POST(HttpRequest.BodyPublishers.ofByteArray(config)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(configPut.statusCode()).isEqualTo(201);
        StringBuilder descriptors = new StringBuilder();
        for (byte[] layer : layers) {
            descriptors.append(descriptors.isEmpty() ? "" : ",").append("{\"mediaType\":\"").append(mediaType).append("\",\"digest\":\"")
                    .append(Digest.sha256(layer)).append("\",\"size\":").append(layer.length).append("}");
        }
        return ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":{\"mediaType\":"
                + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + Digest.sha256(config) + "\",\"size\":" + config.length
                + "},\"layers\":[" + descriptors + "]}").getBytes(StandardCharsets.UTF_8);
    }

    private JsonNode settle() throws Exception {
        HttpResponse<String> settled = http.send(HttpRequest.newBuilder(management("/actuator/dedup"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":120}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(settled.statusCode()).as(settled.body()).isEqualTo(200);
        return JSON.readTree(settled.body());
    }

    private HttpResponse<byte[]> get(String repository, byte[] blob, String range) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(blobUri(repository, blob));
        if (range != null) {
            request.header("Range", range);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private URI blobUri(String repository, byte[] blob) {
        return uri("/v2/" + repository + "/blobs/" + Digest.sha256(blob));
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private URI management(String path) {
        return URI.create("http://localhost:" + managementPort + path);
    }
}
