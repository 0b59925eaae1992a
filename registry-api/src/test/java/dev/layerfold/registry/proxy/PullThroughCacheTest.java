package dev.layerfold.registry.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.gc.CheckReport;
import dev.layerfold.gc.RegistryCheck;
import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The pull-through cache against an upstream whose behaviour each test scripts ({@link ScriptedUpstream}),
 * over real HTTP: what is fetched once and kept, when tags are asked again, Docker Hub's token sign-in,
 * 429s, and what a hostile upstream costs (wrong bytes, oversize manifests, redirect loops, a stalled body).
 */
@Import(PullThroughCacheTest.Meters.class)
class PullThroughCacheTest extends RegistryHttpTest {

    private static final ScriptedUpstream UPSTREAM = ScriptedUpstream.started();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

    @TestConfiguration
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Autowired
    private BlobStore blobs;
    @Autowired
    private MeterRegistry meters;
    @Autowired
    private MetadataStore metadata;
    @Autowired
    private GcIndex gcIndex;
    @Autowired
    private ManifestTargets targets;
    @Autowired
    private Upstreams upstreams;

    @DynamicPropertySource
    static void upstreams(DynamicPropertyRegistry properties) {
        properties.add("layerfold.proxy.upstreams[0].prefix", () -> "open");
        properties.add("layerfold.proxy.upstreams[0].url", () -> UPSTREAM.url("open").toString());
        properties.add("layerfold.proxy.upstreams[0].tag-ttl", () -> "1s");
        properties.add("layerfold.proxy.upstreams[1].prefix", () -> "signed");
        properties.add("layerfold.proxy.upstreams[1].url", () -> UPSTREAM.url("signed").toString());
        properties.add("layerfold.proxy.upstreams[1].username", () -> ScriptedUpstream.USER);
        properties.add("layerfold.proxy.upstreams[1].password", () -> ScriptedUpstream.PASSWORD);
        properties.add("layerfold.proxy.upstreams[2].prefix", () -> "limited");
        properties.add("layerfold.proxy.upstreams[2].url", () -> UPSTREAM.url("limited").toString());
        properties.add("layerfold.proxy.read-timeout", () -> "4s");
        properties.add("layerfold.proxy.max-redirects", () -> "3");
        properties.add("layerfold.api.max-manifest-size", () -> "256KB");
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    /** A config, a layer and a manifest of them at the upstream under {@code repository:tag}. */
    private record Image(Digest manifest, byte[] manifestBytes, Digest config, byte[] configBytes, Digest layer, byte[] layerBytes) {
    }

    private Image upstreamImage(String repository, String tag, long seed, ScriptedUpstream.Behaviour layerBehaviour) {
        return upstreamImage(repository, tag, seed, layerBehaviour, 300_000);
    }

    private Image upstreamImage(String repository, String tag, long seed, ScriptedUpstream.Behaviour layerBehaviour,
                                int layerSize) {
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"seed\":" + seed + "}").getBytes(StandardCharsets.UTF_8);
        byte[] layer = new byte[layerSize];
        new Random(seed).nextBytes(layer);
        Digest configDigest = UPSTREAM.blob(config, ScriptedUpstream.Behaviour.NORMAL);
        Digest layerDigest = UPSTREAM.blob(layer, layerBehaviour);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                + descriptor(OCI_CONFIG, configDigest, config.length) + ",\"layers\":["
                + descriptor(OCI_LAYER, layerDigest, layer.length) + "]}").getBytes(StandardCharsets.UTF_8);
        Digest manifestDigest = UPSTREAM.manifest(repository, tag, OCI_MANIFEST, manifest);
        return new Image(manifestDigest, manifest, configDigest, config, layerDigest, layer);
    }

    /** A response, or the failure of its body, within a bound: a broken-off response must not hang. */
    private record Answer(int status, byte[] body, Throwable failure, String retryAfter) {
        String text() {
            return status + " " + (body == null ? String.valueOf(failure) : new String(body, StandardCharsets.UTF_8));
        }
    }

    private Answer get(String method, String path) throws Exception {
        CompletableFuture<HttpResponse<byte[]>> response = CLIENT.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + path)).method(method, HttpRequest.BodyPublishers.noBody())
                .header("Accept", OCI_MANIFEST).build(), HttpResponse.BodyHandlers.ofByteArray());
        try {
            HttpResponse<byte[]> answer = response.get(30, TimeUnit.SECONDS);
            return new Answer(answer.statusCode(), answer.body(), null, answer.headers().firstValue("Retry-After").orElse(null));
        } catch (ExecutionException e) {
            return new Answer(-1, null, e.getCause(), null);
        }
    }

    private double failures(String upstream, String reason) {
        var counter = meters.find("layerfold.upstream.failures").tag("upstream", upstream).tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void anImageIsFetchedOnceThenServedFromTheCache() throws Exception {
        String repository = uniqueRepository("app");
        Image image = upstreamImage(repository, "v1", 1, ScriptedUpstream.Behaviour.NORMAL);
        String local = "/v2/open/" + repository;

        for (int round = 0; round < 2; round++) {
            Answer manifest = get("GET", local + "/manifests/v1");
            assertThat(manifest.status()).as(manifest.text()).isEqualTo(200);
            assertThat(manifest.body()).isEqualTo(image.manifestBytes());
            Answer config = get("HEAD", local + "/blobs/" + image.config());
            assertThat(config.status()).isEqualTo(200);
            Answer layer = get("GET", local + "/blobs/" + image.layer());
            assertThat(layer.status()).as(layer.text()).isEqualTo(200);
            assertThat(layer.body()).isEqualTo(image.layerBytes());
        }
        assertThat(UPSTREAM.requests("GET", "/open/v2/" + repository + "/blobs/" + image.layer())).isEqualTo(1);
        assertThat(UPSTREAM.requests("GET", "/open/v2/" + repository + "/manifests/" + image.manifest())).isEqualTo(1);
        assertThat(blobs.size(image.layer())).contains((long) image.layerBytes().length);
        assertThat(get("GET", local + "/manifests/" + image.manifest()).body()).isEqualTo(image.manifestBytes());
    }

    @Test
    void aManifestIsReferencedAtOnceAndItsUnfetchedBlobsAreNoProblemForTheCheck() throws Exception {
        String repository = uniqueRepository("lazy");
        Image image = upstreamImage(repository, "v1", 12, ScriptedUpstream.Behaviour.NORMAL);
        assertThat(get("GET", "/v2/open/" + repository + "/manifests/v1").status()).isEqualTo(200);
        RepositoryName local = RepositoryName.of("open/" + repository);

        // The collector keeps the blobs from now on, though they are not fetched yet.
        assertThat(gcIndex.references(image.layer())).isPositive();
        assertThat(gcIndex.references(image.config())).isPositive();
        assertThat(blobs.size(image.layer())).isEmpty();

        Predicate<CheckReport.Problem> here = problem -> problem.repository().equals(local);
        CheckReport unaware = new RegistryCheck(blobs, BlobContent.intact(blobs), metadata, gcIndex, targets,
                Optional.empty()).run(false);
        assertThat(unaware.problems().stream().filter(here).map(CheckReport.Problem::kind))
                .containsOnly(CheckReport.Kind.BLOB_MISSING);
        CheckReport aware = new RegistryCheck(blobs, BlobContent.intact(blobs), metadata, gcIndex, targets,
                Optional.empty(), name -> upstreams.route(name).isPresent()).run(false);
        assertThat(aware.problems().stream().filter(here)).isEmpty();
    }

    @Test
    void aTagIsAskedAgainOnlyAfterItsTtlAndFollowsTheUpstream() throws Exception {
        String repository = uniqueRepository("moving");
        Image first = upstreamImage(repository, "latest", 2, ScriptedUpstream.Behaviour.NORMAL);
        String path = "/v2/open/" + repository + "/manifests/latest";
        assertThat(get("GET", path).body()).isEqualTo(first.manifestBytes());
        int heads = UPSTREAM.requests("HEAD", "/open/v2/" + repository + "/manifests/latest");

        Image second = upstreamImage(repository, "latest", 3, ScriptedUpstream.Behaviour.NORMAL);
        Answer withinTtl = get("GET", path);
        Thread.sleep(1_300);
        Answer afterTtl = get("GET", path);

        assertThat(afterTtl.body()).isEqualTo(second.manifestBytes());
        assertThat(UPSTREAM.requests("HEAD", "/open/v2/" + repository + "/manifests/latest")).isGreaterThan(heads);
        // Within the TTL, unless this machine was slow enough for the TTL to pass already.
        assertThat(withinTtl.body()).isIn(first.manifestBytes(), second.manifestBytes());
    }

    @Test
    void concurrentPullsOfAMissingBlobFetchItOnce() throws Exception {
        String repository = uniqueRepository("busy");
        Image image = upstreamImage(repository, "v1", 4, ScriptedUpstream.Behaviour.SLOW);
        List<CompletableFuture<Answer>> pulls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pulls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return get("GET", "/v2/open/" + repository + "/blobs/" + image.layer());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (CompletableFuture<Answer> pull : pulls) {
            Answer answer = pull.get(60, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.text()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo(image.layerBytes());
        }
        assertThat(UPSTREAM.requests("GET", "/open/v2/" + repository + "/blobs/" + image.layer())).isEqualTo(1);
    }

    @Test
    void aRequestThatComesDuringAFetchIsStreamedFromItRatherThanMadeToWait() throws Exception {
        String repository = uniqueRepository("follow");
        // Larger than what the filesystem store gathers before it writes (256 KiB): a follower trails by as much.
        Image image = upstreamImage(repository, "v1", 13, ScriptedUpstream.Behaviour.SLOW, 4 << 20);
        String path = "/v2/open/" + repository + "/blobs/" + image.layer();
        CompletableFuture<Answer> leader = CompletableFuture.supplyAsync(() -> {
            try {
                return get("GET", path);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String upstreamPath = "/open/v2/" + repository + "/blobs/" + image.layer();
        for (int waited = 0; UPSTREAM.requests("GET", upstreamPath) == 0 && waited < 100; waited++) {
            Thread.sleep(100);
        }
        Thread.sleep(300); // the upstream has sent the first half and now stalls for 2.5 s

        HttpResponse<java.io.InputStream> follower = CLIENT.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(follower.statusCode()).isEqualTo(200);
        byte[] received;
        try (java.io.InputStream body = follower.body()) {
            byte[] firstHalf = body.readNBytes(image.layerBytes().length / 2 - (256 << 10));
            assertThat(blobs.size(image.layer())).as("published before the follower had most of the first half").isEmpty();
            byte[] rest = body.readAllBytes();
            received = Arrays.copyOf(firstHalf, firstHalf.length + rest.length);
            System.arraycopy(rest, 0, received, firstHalf.length, rest.length);
        }
        assertThat(received).isEqualTo(image.layerBytes());
        assertThat(leader.get(30, TimeUnit.SECONDS).body()).isEqualTo(image.layerBytes());
        assertThat(UPSTREAM.requests("GET", upstreamPath)).isEqualTo(1);
        assertThat(get("GET", path).body()).isEqualTo(image.layerBytes());
    }

    @Test
    void wrongBytesUnderADigestReachNoClientWholeAndAreNotKept() throws Exception {
        String repository = uniqueRepository("liar");
        Image image = upstreamImage(repository, "v1", 5, ScriptedUpstream.Behaviour.WRONG_BYTES);
        double before = failures("open", "digest_mismatch");
        for (int attempt = 1; attempt <= 2; attempt++) {
            Answer answer = get("GET", "/v2/open/" + repository + "/blobs/" + image.layer());
            assertThat(answer.status() == 200 && answer.body() != null)
                    .as("a complete 200 for bytes that are not the blob: %s", answer.status()).isFalse();
            assertThat(UPSTREAM.requests("GET", "/open/v2/" + repository + "/blobs/" + image.layer())).isEqualTo(attempt);
        }
        assertThat(blobs.size(image.layer())).isEmpty();
        assertThat(failures("open", "digest_mismatch")).isEqualTo(before + 2);
    }

    @Test
    void aManifestThatIsNotItsDigestIsRefusedAndNotKept() throws Exception {
        String repository = uniqueRepository("liar-manifest");
        Image real = upstreamImage(repository, null, 6, ScriptedUpstream.Behaviour.NORMAL);
        byte[] other = Arrays.copyOf(real.manifestBytes(), real.manifestBytes().length + 1);
        other[other.length - 1] = ' ';
        Digest claimed = Digest.sha256("not these bytes".getBytes(StandardCharsets.UTF_8));
        UPSTREAM.manifestUnderWrongDigest(repository, claimed, OCI_MANIFEST, other);
        Answer answer = get("GET", "/v2/open/" + repository + "/manifests/" + claimed);
        assertThat(answer.status()).as(answer.text()).isEqualTo(503);
        assertThat(answer.text()).contains("UNAVAILABLE").contains("digest_mismatch");
        assertThat(blobs.size(claimed)).isEmpty();
        assertThat(blobs.size(Digest.sha256(other))).isEmpty();
    }

    @Test
    void aStalledBodyFailsThePullWithinTheReadTimeoutAndLeavesNothing() throws Exception {
        String repository = uniqueRepository("stalled");
        Image image = upstreamImage(repository, "v1", 7, ScriptedUpstream.Behaviour.STALL_HALFWAY);
        long start = System.nanoTime();
        Answer answer = get("GET", "/v2/open/" + repository + "/blobs/" + image.layer());
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(20);
        assertThat(answer.status() == 200 && answer.body() != null).as(answer.text()).isFalse();
        assertThat(blobs.size(image.layer())).isEmpty();
        assertThat(failures("open", "timeout")).isPositive();
    }

    @Test
    void endlessRedirectsAndOversizeManifestsAreRefusedWithoutHarm() throws Exception {
        String repository = uniqueRepository("hostile");
        Image image = upstreamImage(repository, "v1", 8, ScriptedUpstream.Behaviour.REDIRECT_LOOP);
        Answer loop = get("GET", "/v2/open/" + repository + "/blobs/" + image.layer());
        assertThat(loop.status()).as(loop.text()).isEqualTo(503);
        assertThat(loop.text()).contains("redirects");
        assertThat(UPSTREAM.requests("GET", "/open/v2/" + repository + "/blobs/" + image.layer())).isEqualTo(4);

        byte[] huge = new byte[300 * 1024];
        Arrays.fill(huge, (byte) ' ');
        byte[] manifest = image.manifestBytes();
        System.arraycopy(manifest, 0, huge, 0, manifest.length);
        UPSTREAM.manifest(repository, "huge", OCI_MANIFEST, huge);
        Answer oversize = get("GET", "/v2/open/" + repository + "/manifests/huge");
        assertThat(oversize.status()).as(oversize.text()).isEqualTo(503);
        assertThat(oversize.text()).contains("too_large");
        assertThat(failures("open", "too_large")).isPositive();
        assertThat(failures("open", "redirects")).isPositive();
    }

    @Test
    void aTokenUpstreamIsSignedInToOncePerRepository() throws Exception {
        String repository = uniqueRepository("private");
        Image image = upstreamImage(repository, "v1", 9, ScriptedUpstream.Behaviour.NORMAL);
        int tokensBefore = UPSTREAM.requests("GET", "/token");
        Answer manifest = get("GET", "/v2/signed/" + repository + "/manifests/v1");
        assertThat(manifest.status()).as(manifest.text()).isEqualTo(200);
        Answer layer = get("GET", "/v2/signed/" + repository + "/blobs/" + image.layer());
        assertThat(layer.body()).isEqualTo(image.layerBytes());
        Answer config = get("GET", "/v2/signed/" + repository + "/blobs/" + image.config());
        assertThat(config.body()).isEqualTo(image.configBytes());
        assertThat(UPSTREAM.requests("GET", "/token") - tokensBefore).isEqualTo(1);
    }

    @Test
    void aRateLimitingUpstreamIsLeftAloneForItsRetryAfterAndTheClientIsToldSo() throws Exception {
        String repository = uniqueRepository("popular");
        Answer first = get("GET", "/v2/limited/" + repository + "/manifests/v1");
        Answer second = get("GET", "/v2/limited/" + repository + "/manifests/v1");
        for (Answer answer : List.of(first, second)) {
            assertThat(answer.status()).as(answer.text()).isEqualTo(429);
            assertThat(answer.text()).contains("TOOMANYREQUESTS");
            assertThat(Long.parseLong(answer.retryAfter())).isBetween(1L, 120L);
        }
        assertThat(UPSTREAM.requests("HEAD", "/limited/v2/" + repository + "/manifests/v1")).isEqualTo(1);
    }

    @Test
    void aTagDeletedUpstreamIsStillServedHereWithoutCountingAFailure() throws Exception {
        String repository = uniqueRepository("deleted");
        Image image = upstreamImage(repository, "v1", 14, ScriptedUpstream.Behaviour.NORMAL);
        String path = "/v2/open/" + repository + "/manifests/v1";
        assertThat(get("GET", path).body()).isEqualTo(image.manifestBytes());
        UPSTREAM.removeTag(repository, "v1");
        Thread.sleep(1_200);
        double staleBefore = meters.get("layerfold.upstream.stale.served").tag("upstream", "open").counter().count();
        String upstreamPath = "/open/v2/" + repository + "/manifests/v1";
        int headsBefore = UPSTREAM.requests("HEAD", upstreamPath);
        for (int i = 0; i < 2; i++) {
            Answer answer = get("GET", path);
            assertThat(answer.status()).as(answer.text()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo(image.manifestBytes());
        }
        assertThat(UPSTREAM.requests("HEAD", upstreamPath) - headsBefore).as("asked once per TTL").isEqualTo(1);
        assertThat(meters.get("layerfold.upstream.stale.served").tag("upstream", "open").counter().count()).isEqualTo(staleBefore);
    }

    @Test
    void aTagTheUpstreamDoesNotHaveIsUnknown() throws Exception {
        Answer answer = get("GET", "/v2/open/" + uniqueRepository("absent") + "/manifests/v1");
        assertThat(answer.status()).as(answer.text()).isEqualTo(404);
        assertThat(answer.text()).contains("MANIFEST_UNKNOWN").contains("upstream open");
    }

    @Test
    void repositoriesUnderNoPrefixAreNotPulledThrough() throws Exception {
        String repository = uniqueRepository("own");
        upstreamImage(repository, "v1", 10, ScriptedUpstream.Behaviour.NORMAL);
        Answer answer = get("GET", "/v2/" + repository + "/manifests/v1");
        assertThat(answer.status()).as(answer.text()).isEqualTo(404);
        assertThat(UPSTREAM.requests("HEAD", "/open/v2/" + repository + "/manifests/v1")).isZero();
    }
}
