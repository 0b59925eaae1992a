package dev.layerfold.e2e.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Layerfold as a pull-through cache of a real upstream, the CNCF distribution registry started here
 * and filled by skopeo: images pulled through with skopeo and crane, under an explicit prefix and as a
 * Docker registry mirror, come back byte for byte; a tag moved upstream is seen after its TTL; and an
 * upstream killed in the middle of a blob leaves the client with an error and the cache with nothing
 * of the blob, while the tags already cached are still served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PullThroughTest {

    private static final String PREFIX = "upstream.test";
    private static final Duration TAG_TTL = Duration.ofSeconds(3);
    private static final Path TARGET = Path.of("target");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final Skopeo skopeo = Skopeo.onPath();
    private final Crane crane = Crane.installed();
    private Path work;
    private static final String SIGNED_PREFIX = "signed.test";
    private static final String WRONG_PREFIX = "wrong.test";
    private static final String PASSWORD = "pull-secret-" + System.nanoTime();

    private RegistryProcess upstream;
    private RegistryProcess signedUpstream;
    private RegistryProcess layerfold;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(TARGET);
        work = Files.createTempDirectory(TARGET.toAbsolutePath(), "e2e-pull-through-");
        upstream = ReferenceRegistryProcess.start(work.resolve("upstream"), TARGET.resolve("registry-logs"));
        Path htpasswd = Files.writeString(work.resolve("htpasswd"), "puller:" + BCrypt.hashpw(PASSWORD, BCrypt.gensalt(4)) + "\n");
        signedUpstream = ReferenceRegistryProcess.startWithHtpasswd(work.resolve("signed-upstream"),
                TARGET.resolve("registry-logs"), htpasswd);
        Map<String, String> properties = new HashMap<>(Map.of(
                "layerfold.proxy.upstreams[0].prefix", PREFIX,
                "layerfold.proxy.upstreams[0].url", upstream.baseUri().toString(),
                "layerfold.proxy.upstreams[0].tag-ttl", TAG_TTL.toSeconds() + "s",
                "layerfold.proxy.upstreams[0].registry-mirror", "true",
                "layerfold.proxy.read-timeout", "5s"));
        properties.putAll(Map.of(
                "layerfold.proxy.upstreams[1].prefix", SIGNED_PREFIX,
                "layerfold.proxy.upstreams[1].url", signedUpstream.baseUri().toString(),
                "layerfold.proxy.upstreams[1].username", "puller",
                "layerfold.proxy.upstreams[1].password", PASSWORD,
                "layerfold.proxy.upstreams[2].prefix", WRONG_PREFIX,
                "layerfold.proxy.upstreams[2].url", signedUpstream.baseUri().toString(),
                "layerfold.proxy.upstreams[2].username", "puller",
                "layerfold.proxy.upstreams[2].password", "not-" + PASSWORD));
        layerfold = LayerfoldProcess.start("256m", work.resolve("layerfold"), TARGET.resolve("registry-logs"), List.of(),
                properties);
    }

    @AfterAll
    void stop() throws Exception {
        if (layerfold != null) {
            layerfold.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (signedUpstream != null) {
            signedUpstream.close();
        }
        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Test
    @Order(1)
    void anImagePulledThroughWithSkopeoAndCraneIsByteIdenticalToTheUpstreams() throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor amd64 = images.image(new Platform("linux", "amd64"),
                List.of(images.layer(1, 4, 200_000), images.layer(2, 30, 3_000)));
        Descriptor arm64 = images.image(new Platform("linux", "arm64"), List.of(images.layer(3, 4, 200_000)));
        Descriptor index = images.index(List.of(new Platform("linux", "amd64"), new Platform("linux", "arm64")),
                List.of(amd64, arm64));
        pushed.tag("v1", index);
        skopeo.copy(pushed.skopeoReference("v1"), "docker://" + upstream.hostAndPort() + "/e2e/app:v1",
                "--all", "--preserve-digests", "--dest-tls-verify=false");

        // Under the explicit prefix, with skopeo: every platform.
        Path viaSkopeo = work.resolve("via-skopeo");
        skopeo.copy("docker://" + layerfold.hostAndPort() + "/" + PREFIX + "/e2e/app:v1", "oci:" + viaSkopeo + ":v1",
                "--all", "--preserve-digests", "--src-tls-verify=false");
        assertSameClosure(pushed, OciLayout.open(viaSkopeo), index.digest());

        // As a registry mirror (no prefix), with crane; then again, now from the cache.
        for (String round : List.of("first", "second")) {
            Path viaCrane = work.resolve("via-crane-" + round);
            String image = layerfold.hostAndPort() + "/e2e/app:v1";
            assertThat(crane.digest(image)).isEqualTo(index.digest());
            assertThat(crane.manifest(image)).isEqualTo(pushed.readBlob(index.digest()));
            crane.pull(image + "@" + amd64.digest(), viaCrane);
            assertSameClosure(pushed, OciLayout.open(viaCrane), amd64.digest());
        }
        assertThat(metric("layerfold_upstream_requests_total", "kind=\"blob\"")).isPositive();
        assertThat(metric("layerfold_upstream_received_bytes_total", "")).isGreaterThan(800_000);
    }

    @Test
    @Order(2)
    void aTagMovedUpstreamIsSeenOnceItsTtlPassed() throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("moving"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor first = images.image(new Platform("linux", "amd64"), List.of(images.layer(10, 3, 10_000)));
        Descriptor second = images.image(new Platform("linux", "amd64"), List.of(images.layer(11, 3, 10_000)));
        pushed.tag("first", first);
        pushed.tag("second", second);
        String upstreamImage = "docker://" + upstream.hostAndPort() + "/e2e/moving:latest";
        String cached = layerfold.hostAndPort() + "/" + PREFIX + "/e2e/moving:latest";

        skopeo.copy(pushed.skopeoReference("first"), upstreamImage, "--preserve-digests", "--dest-tls-verify=false");
        assertThat(crane.digest(cached)).isEqualTo(first.digest());
        skopeo.copy(pushed.skopeoReference("second"), upstreamImage, "--preserve-digests", "--dest-tls-verify=false");
        // Within the TTL the cached tag stands (the refresh may have started just now: allow a second).
        long movedAt = System.nanoTime();
        String seen = crane.digest(cached);
        if (System.nanoTime() - movedAt < TAG_TTL.toNanos() - TimeUnit.SECONDS.toNanos(1)) {
            assertThat(seen).isEqualTo(first.digest());
        }
        Thread.sleep(TAG_TTL.toMillis() + 500);
        assertThat(crane.digest(cached)).isEqualTo(second.digest());
        Path pulled = work.resolve("moved");
        crane.pull(cached, pulled);
        assertSameClosure(pushed, OciLayout.open(pulled), second.digest());
    }

    @Test
    @Order(3)
    void anUpstreamThatRequiresSignInIsSignedInToAsConfiguredAndThePasswordIsNeverLogged() throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("private"));
        ImageWriter images = new ImageWriter(pushed);
        Descriptor image = images.image(new Platform("linux", "amd64"), List.of(images.layer(20, 5, 50_000)));
        pushed.tag("v1", image);
        skopeo.copy(pushed.skopeoReference("v1"), "docker://" + signedUpstream.hostAndPort() + "/e2e/private:v1",
                "--preserve-digests", "--dest-tls-verify=false", "--dest-creds=puller:" + PASSWORD);

        Path pulled = work.resolve("private-pulled");
        crane.pull(layerfold.hostAndPort() + "/" + SIGNED_PREFIX + "/e2e/private:v1", pulled);
        assertSameClosure(pushed, OciLayout.open(pulled), image.digest());

        HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(layerfold.baseUri()
                .resolve("/v2/" + WRONG_PREFIX + "/e2e/private/manifests/v1")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.body()).contains("UNAVAILABLE").contains("unauthorized");
        assertThat(Files.readString(layerfold.log())).doesNotContain(PASSWORD);
    }

    @Test
    @Order(4)
    void anUpstreamKilledMidBlobLeavesAnErrorAndNothingPartialThenCachedTagsStillServe() throws Exception {
        // A blob of 96 MiB of noise, pushed to the upstream in one request.
        byte[] noise = new byte[96 << 20];
        new Random(7).nextBytes(noise);
        String digest = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(noise));
        HttpResponse<String> start = HTTP.send(HttpRequest.newBuilder(upstream.baseUri().resolve("/v2/e2e/big/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(start.statusCode()).as(start.body()).isEqualTo(202);
        String location = start.headers().firstValue("Location").orElseThrow();
        URI put = upstream.baseUri().resolve(location + (location.contains("?") ? "&" : "?") + "digest=" + digest);
        HttpResponse<String> stored = HTTP.send(HttpRequest.newBuilder(put).PUT(HttpRequest.BodyPublishers.ofByteArray(noise))
                .header("Content-Type", "application/octet-stream").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
        noise = null;

        URI blob = layerfold.baseUri().resolve("/v2/" + PREFIX + "/e2e/big/blobs/" + digest);
        HttpResponse<InputStream> pulling = HTTP.send(HttpRequest.newBuilder(blob).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(pulling.statusCode()).isEqualTo(200);
        long announced = pulling.headers().firstValueAsLong("Content-Length").orElseThrow();
        assertThat(announced).isEqualTo(96L << 20);
        CompletableFuture<Long> read;
        try (InputStream body = pulling.body()) {
            // The client reads slowly, so the fetch (which feeds it as it stores) is still under way.
            byte[] first = body.readNBytes(1 << 20);
            assertThat(first).hasSize(1 << 20);
            upstream.kill();
            read = CompletableFuture.supplyAsync(() -> {
                long count = first.length;
                byte[] buffer = new byte[1 << 16];
                try {
                    for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                        count += n;
                    }
                } catch (IOException broken) {
                    return -count - 1; // broken off: the outcome we want
                }
                return count;
            });
            long outcome = read.get(2, TimeUnit.MINUTES);
            assertThat(outcome).as("the client must not get the whole blob, nor a clean end short of it").isNegative();
        }

        // Nothing of the blob is kept: no blob, no upload left behind.
        String hex = digest.substring("sha256:".length());
        try (Stream<Path> files = Files.walk(work.resolve("layerfold"))) {
            assertThat(files.filter(file -> file.getFileName().toString().equals(hex))).isEmpty();
        }
        Path uploads = work.resolve("layerfold").resolve("uploads");
        if (Files.isDirectory(uploads)) {
            try (Stream<Path> left = Files.list(uploads)) {
                assertThat(left).isEmpty();
            }
        }
        HttpResponse<String> again = HTTP.send(HttpRequest.newBuilder(blob).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).as(again.body()).isEqualTo(503);
        assertThat(again.body()).contains("UNAVAILABLE");

        // The upstream is down: a cached tag past its TTL is still served, an unseen one is refused clearly.
        Thread.sleep(TAG_TTL.toMillis() + 500);
        assertThat(crane.digest(layerfold.hostAndPort() + "/e2e/app:v1")).startsWith("sha256:");
        HttpResponse<String> unseen = HTTP.send(HttpRequest.newBuilder(layerfold.baseUri()
                        .resolve("/v2/" + PREFIX + "/e2e/never-seen/manifests/v1")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unseen.statusCode()).isEqualTo(503);
        assertThat(unseen.body()).contains("UNAVAILABLE").contains(PREFIX);
        assertThat(metric("layerfold_upstream_failures_total", "reason=\"truncated\"")
                + metric("layerfold_upstream_failures_total", "reason=\"timeout\"")).isPositive();
        assertThat(metric("layerfold_upstream_failures_total", "reason=\"unreachable\"")).isPositive();
        assertThat(metric("layerfold_upstream_stale_served_total", "")).isPositive();
    }

    private static void assertSameClosure(OciLayout pushed, OciLayout pulled, String manifest) throws IOException {
        assertThat(pulled.closure(manifest)).isEqualTo(pushed.closure(manifest));
        for (String blob : pushed.closure(manifest)) {
            assertThat(pulled.readBlob(blob)).as("bytes of %s", blob).isEqualTo(pushed.readBlob(blob));
        }
    }

    /** The sum of a counter's samples whose labels contain {@code labels}, from the registry's Prometheus scrape. */
    private double metric(String name, String labels) throws Exception {
        HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(layerfold.managementUri().resolve("/actuator/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body().lines()
                .filter(line -> line.startsWith(name + "{") && line.contains("upstream=\"" + PREFIX + "\"") && line.contains(labels))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
