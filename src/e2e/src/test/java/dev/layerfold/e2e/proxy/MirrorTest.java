package dev.layerfold.e2e.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.notification.WebhookReceiver;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scheduled mirroring from a real upstream, the CNCF distribution registry filled by skopeo: a rule
 * ({@code v*} tags within {@code >=1.2 <2}, linux/amd64 only) copies the two tags it selects and none
 * of the others, before any client asks; what it copied is pulled byte for byte with nothing fetched
 * on demand; a second run fetches nothing; a tag moved upstream costs the next run only its new
 * manifest and blobs; each tag copied is a {@code mirror} notification.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MirrorTest {

    private static final String PREFIX = "mirror.test";
    private static final String REPOSITORY = "e2e/base";
    private static final String RULE = "rule=\"" + PREFIX + "/" + REPOSITORY + "\"";
    private static final Platform AMD64 = new Platform("linux", "amd64");
    private static final Platform ARM64 = new Platform("linux", "arm64");
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final Path TARGET = Path.of("target");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Skopeo skopeo = Skopeo.onPath();
    private final Crane crane = Crane.installed();
    private Path work;
    private RegistryProcess upstream;
    private RegistryProcess layerfold;
    private WebhookReceiver receiver;
    private OciLayout pushed;
    private ImageWriter images;
    private ImageWriter.Layer shared;
    private Descriptor amd64;
    private Descriptor arm64Layer;
    private Descriptor index;
    private Descriptor v13;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(TARGET);
        work = Files.createTempDirectory(TARGET.toAbsolutePath(), "e2e-mirror-");
        upstream = ReferenceRegistryProcess.start(work.resolve("upstream"), TARGET.resolve("registry-logs"));
        pushed = OciLayout.create(work.resolve("pushed"));
        images = new ImageWriter(pushed);
        shared = images.layer(1, 4, 100_000);
        amd64 = images.image(AMD64, List.of(shared, images.layer(2, 3, 50_000)));
        ImageWriter.Layer arm64Only = images.layer(3, 4, 80_000);
        arm64Layer = arm64Only.blob();
        Descriptor arm64 = images.image(ARM64, List.of(arm64Only));
        index = images.index(List.of(AMD64, ARM64), List.of(amd64, arm64));
        v13 = images.image(AMD64, List.of(shared, images.layer(4, 2, 60_000)));
        Descriptor v20 = images.image(AMD64, List.of(images.layer(5, 2, 40_000)));
        pushUpstream("v1.2", index);
        pushUpstream("v1.3", v13);
        pushUpstream("v2.0", v20);
        pushUpstream("latest", v20);

        receiver = WebhookReceiver.start();
        layerfold = LayerfoldProcess.start("256m", work.resolve("layerfold"), TARGET.resolve("registry-logs"), List.of(),
                Map.ofEntries(
                        Map.entry("layerfold.proxy.upstreams[0].prefix", PREFIX),
                        Map.entry("layerfold.proxy.upstreams[0].url", upstream.baseUri().toString()),
                        Map.entry("layerfold.proxy.upstreams[0].tag-ttl", "1h"),
                        Map.entry("layerfold.mirror.rules[0].upstream", PREFIX),
                        Map.entry("layerfold.mirror.rules[0].repository", REPOSITORY),
                        Map.entry("layerfold.mirror.rules[0].tags[0]", "v*"),
                        Map.entry("layerfold.mirror.rules[0].semver", ">=1.2 <2"),
                        Map.entry("layerfold.mirror.rules[0].platforms[0]", "linux/amd64"),
                        Map.entry("layerfold.mirror.rules[0].interval", "2s"),
                        Map.entry("layerfold.notifications.poll-interval", "200ms"),
                        Map.entry("layerfold.notifications.endpoints[0].name", "mirrors"),
                        Map.entry("layerfold.notifications.endpoints[0].url", receiver.url("/mirrors"))));
    }

    @AfterAll
    void stop() throws Exception {
        if (layerfold != null) {
            layerfold.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private void pushUpstream(String tag, Descriptor manifest) throws Exception {
        pushUpstream(tag, tag, manifest);
    }

    /** Tags the manifest {@code layoutTag} in the local layout (each name once) and pushes it as {@code tag}. */
    private void pushUpstream(String layoutTag, String tag, Descriptor manifest) throws Exception {
        pushed.tag(layoutTag, manifest);
        skopeo.copy(pushed.skopeoReference(layoutTag), "docker://" + upstream.hostAndPort() + "/" + REPOSITORY + ":" + tag,
                "--all", "--preserve-digests", "--dest-tls-verify=false");
    }

    @Test
    @Order(1)
    void theRuleCopiesTheTwoSelectedTagsAndNothingElseBeforeAnyClientAsks() throws Exception {
        awaitMetric("layerfold_mirror_tags_mirrored_total", 2);
        // v1.2's index, its amd64 manifest, v1.3's manifest; two configs and three layers (one shared).
        assertThat(metric("layerfold_mirror_manifests_fetched_total", RULE)).isEqualTo(3);
        assertThat(metric("layerfold_mirror_blobs_fetched_total", RULE)).isEqualTo(5);
        assertThat(metric("layerfold_mirror_failures_total", RULE)).isZero();
        assertThat(metric("layerfold_mirror_last_success_timestamp_seconds", RULE))
                .isGreaterThan(Instant.now().minus(Duration.ofMinutes(5)).getEpochSecond());
        assertThat(localTags()).containsExactlyInAnyOrder("v1.2", "v1.3");

        // The arm64 platform was left out: none of its bytes are here.
        String arm64Hex = arm64Layer.digest().substring("sha256:".length());
        try (Stream<Path> files = Files.walk(work.resolve("layerfold"))) {
            assertThat(files.filter(file -> file.getFileName().toString().equals(arm64Hex))).isEmpty();
        }

        // Pulled with skopeo and crane, byte for byte, with no blob fetched on demand.
        double blobRequests = metric("layerfold_upstream_requests_total", "kind=\"blob\"");
        String image = layerfold.hostAndPort() + "/" + PREFIX + "/" + REPOSITORY;
        assertThat(crane.manifest(image + ":v1.2")).isEqualTo(pushed.readBlob(index.digest()));
        Path amd64Pulled = work.resolve("pulled-v1.2");
        skopeo.copy("docker://" + image + "@" + amd64.digest(), "oci:" + amd64Pulled + ":v1.2", "--preserve-digests",
                "--src-tls-verify=false");
        assertSameClosure(OciLayout.open(amd64Pulled), amd64.digest());
        Path v13Pulled = work.resolve("pulled-v1.3");
        crane.pull(image + ":v1.3", v13Pulled);
        assertSameClosure(OciLayout.open(v13Pulled), v13.digest());
        assertThat(metric("layerfold_upstream_requests_total", "kind=\"blob\"")).isEqualTo(blobRequests);

        List<JsonNode> mirrored = awaitMirrorEvents(2);
        assertThat(mirrored).extracting(event -> event.path("target").path("tag").asString())
                .containsExactlyInAnyOrder("v1.2", "v1.3");
        assertThat(mirrored).extracting(event -> event.path("target").path("repository").asString())
                .containsOnly(PREFIX + "/" + REPOSITORY);
    }

    @Test
    @Order(2)
    void aSecondRunFetchesNothing() throws Exception {
        double runs = metric("layerfold_mirror_runs_total", RULE);
        double manifests = metric("layerfold_mirror_manifests_fetched_total", RULE);
        double blobs = metric("layerfold_mirror_blobs_fetched_total", RULE);
        double bytes = metric("layerfold_mirror_fetched_bytes_total", RULE);
        awaitMetric("layerfold_mirror_runs_total", runs + 2);
        assertThat(metric("layerfold_mirror_manifests_fetched_total", RULE)).isEqualTo(manifests);
        assertThat(metric("layerfold_mirror_blobs_fetched_total", RULE)).isEqualTo(blobs);
        assertThat(metric("layerfold_mirror_fetched_bytes_total", RULE)).isEqualTo(bytes);
        assertThat(metric("layerfold_mirror_tags_mirrored_total", RULE)).isEqualTo(2);
        assertThat(metric("layerfold_mirror_failures_total", RULE)).isZero();

        // The operator's view of the rules, on the management port.
        HttpResponse<String> status = HTTP.send(HttpRequest.newBuilder(layerfold.managementUri().resolve("/actuator/mirror"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        JsonNode rule = JSON.readTree(status.body()).path("rules").path(0);
        assertThat(rule.path("name").asString()).isEqualTo(PREFIX + "/" + REPOSITORY);
        assertThat(rule.path("semver").asString()).isEqualTo(">=1.2 <2");
        assertThat(rule.path("lastRun").path("tagsSelected").asInt()).isEqualTo(2);
        assertThat(rule.path("lastRun").path("tagsMirrored").asInt()).isZero();
        assertThat(rule.path("lastRun").path("failures").asInt()).isZero();
    }

    @Test
    @Order(3)
    void aTagMovedUpstreamCostsTheNextRunOnlyItsNewManifestAndBlobs() throws Exception {
        double manifests = metric("layerfold_mirror_manifests_fetched_total", RULE);
        double blobs = metric("layerfold_mirror_blobs_fetched_total", RULE);
        double bytes = metric("layerfold_mirror_fetched_bytes_total", RULE);
        ImageWriter.Layer added = images.layer(6, 2, 70_000);
        Descriptor moved = images.image(AMD64, List.of(shared, added));
        pushUpstream("v1.3-moved", "v1.3", moved);

        awaitMetric("layerfold_mirror_tags_mirrored_total", 3);
        assertThat(metric("layerfold_mirror_manifests_fetched_total", RULE)).isEqualTo(manifests + 1);
        // Its config and its new layer; the shared layer was here.
        assertThat(metric("layerfold_mirror_blobs_fetched_total", RULE)).isEqualTo(blobs + 2);
        long configSize = pushed.readBlob(JSON.readTree(pushed.readBlob(moved.digest())).path("config")
                .path("digest").asString()).length;
        assertThat(metric("layerfold_mirror_fetched_bytes_total", RULE))
                .isEqualTo(bytes + added.blob().size() + configSize);

        Path pulled = work.resolve("pulled-moved");
        crane.pull(layerfold.hostAndPort() + "/" + PREFIX + "/" + REPOSITORY + "@" + moved.digest(), pulled);
        assertSameClosure(OciLayout.open(pulled), moved.digest());
        assertThat(crane.digest(layerfold.hostAndPort() + "/" + PREFIX + "/" + REPOSITORY + ":v1.3")).isEqualTo(moved.digest());
        assertThat(awaitMirrorEvents(3)).anySatisfy(event -> {
            assertThat(event.path("target").path("tag").asString()).isEqualTo("v1.3");
            assertThat(event.path("target").path("digest").asString()).isEqualTo(moved.digest());
        });
    }

    private void assertSameClosure(OciLayout pulled, String manifest) throws IOException {
        assertThat(pulled.closure(manifest)).isEqualTo(pushed.closure(manifest));
        for (String blob : pushed.closure(manifest)) {
            assertThat(pulled.readBlob(blob)).as("bytes of %s", blob).isEqualTo(pushed.readBlob(blob));
        }
    }

    private List<String> localTags() throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(layerfold.baseUri()
                .resolve("/v2/" + PREFIX + "/" + REPOSITORY + "/tags/list")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        List<String> tags = new ArrayList<>();
        JSON.readTree(answer.body()).path("tags").forEach(tag -> tags.add(tag.asString()));
        return tags;
    }

    private List<JsonNode> awaitMirrorEvents(int count) throws InterruptedException {
        Instant deadline = Instant.now().plus(PATIENCE);
        List<JsonNode> mirrored = List.of();
        while (Instant.now().isBefore(deadline)) {
            List<JsonNode> found = new ArrayList<>();
            for (WebhookReceiver.Received request : receiver.received()) {
                JSON.readTree(request.body()).path("events").forEach(event -> {
                    if (event.path("action").asString().equals("mirror")) {
                        found.add(event);
                    }
                });
            }
            mirrored = found;
            if (mirrored.size() >= count) {
                return mirrored;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("expected " + count + " mirror events, got " + mirrored + "\n" + layerfold.logTail());
    }

    private void awaitMetric(String name, double atLeast) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (metric(name, RULE) < atLeast) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(name + " did not reach " + atLeast + " within " + PATIENCE + "\n" + layerfold.logTail());
            }
            Thread.sleep(200);
        }
    }

    /** The sum of the samples of a metric whose labels contain {@code labels}, for this test's upstream or rule. */
    private double metric(String name, String labels) throws Exception {
        HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(layerfold.managementUri()
                .resolve("/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body().lines()
                .filter(line -> line.startsWith(name + "{") && line.contains(labels)
                        && (line.contains(RULE) || line.contains("upstream=\"" + PREFIX + "\"")))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
