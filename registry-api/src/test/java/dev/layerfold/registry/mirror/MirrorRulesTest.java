package dev.layerfold.registry.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.registry.proxy.ScriptedUpstream;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.MetadataStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A mirror rule against an upstream over real HTTP that pages its tag list ({@link ScriptedUpstream}):
 * which tags are selected across pages, a tag whose blob comes wrong is left unmoved while the rest
 * is mirrored, the next run resumes with only what is missing, and a run with nothing new fetches
 * nothing. Runs are started by the test; the scheduled one ran at startup, before the upstream had
 * the repository.
 */
@Import(MirrorRulesTest.Observers.class)
class MirrorRulesTest extends RegistryHttpTest {

    private static final ScriptedUpstream UPSTREAM = ScriptedUpstream.started();
    private static final String REPOSITORY = "lib/app";
    private static final RepositoryName LOCAL = RepositoryName.of("mirrored/" + REPOSITORY);
    private static final String RULE = "mirrored/" + REPOSITORY;

    @TestConfiguration
    static class Observers {
        static final List<RegistryEvent> EVENTS = new CopyOnWriteArrayList<>();

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RegistryEventListener recordingListener() {
            return EVENTS::add;
        }
    }

    @Autowired
    private Mirrors mirrors;
    @Autowired
    private MetadataStore metadata;
    @Autowired
    private BlobStore blobs;
    @Autowired
    private MeterRegistry meters;

    @DynamicPropertySource
    static void rule(DynamicPropertyRegistry properties) {
        properties.add("layerfold.proxy.upstreams[0].prefix", () -> "mirrored");
        properties.add("layerfold.proxy.upstreams[0].url", () -> UPSTREAM.url("open").toString());
        properties.add("layerfold.mirror.rules[0].upstream", () -> "mirrored");
        properties.add("layerfold.mirror.rules[0].repository", () -> REPOSITORY);
        properties.add("layerfold.mirror.rules[0].tags[0]", () -> "1.*");
        properties.add("layerfold.mirror.rules[0].tags[1]", () -> "regex:edge|stable");
        properties.add("layerfold.mirror.rules[0].semver", () -> ">=1.5");
        properties.add("layerfold.mirror.rules[0].interval", () -> "1h");
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    private record Image(Digest manifest, Digest config, Digest layer, byte[] layerBytes) {
    }

    private static Image image(String tag, long seed, ScriptedUpstream.Behaviour layerBehaviour) {
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"seed\":" + seed + "}").getBytes(StandardCharsets.UTF_8);
        byte[] layer = new byte[20_000];
        new Random(seed).nextBytes(layer);
        Digest configDigest = UPSTREAM.blob(config, ScriptedUpstream.Behaviour.NORMAL);
        Digest layerDigest = UPSTREAM.blob(layer, layerBehaviour);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":{\"mediaType\":\""
                + OCI_CONFIG + "\",\"digest\":\"" + configDigest + "\",\"size\":" + config.length + "},\"layers\":[{\"mediaType\":\""
                + OCI_LAYER + "\",\"digest\":\"" + layerDigest + "\",\"size\":" + layer.length + "}]}").getBytes(StandardCharsets.UTF_8);
        return new Image(UPSTREAM.manifest(REPOSITORY, tag, OCI_MANIFEST, manifest), configDigest, layerDigest, layer);
    }

    private double counter(String name) {
        var counter = meters.find(name).tag("rule", RULE).counter();
        return counter == null ? 0 : counter.count();
    }

    private int upstreamGets(Image image) {
        String base = "/open/v2/" + REPOSITORY;
        return UPSTREAM.requests("GET", base + "/manifests/" + image.manifest())
                + UPSTREAM.requests("GET", base + "/blobs/" + image.config())
                + UPSTREAM.requests("GET", base + "/blobs/" + image.layer());
    }

    @Test
    void selectsAcrossPagesLeavesAFailedTagUnmovedResumesAndThenFetchesNothing() throws Exception {
        MirrorJob job = mirrors.jobs().getFirst();
        // The run at startup, against an upstream without the repository: counted as a failure, and over.
        while (job.lastRun().isEmpty()) {
            Thread.sleep(50);
        }
        Map<String, Image> upstream = new TreeMap<>();
        // 1.0 .. 1.11, edge, stable, latest, 2.0: more than two pages of ten.
        for (int minor = 0; minor <= 11; minor++) {
            String tag = "1." + minor;
            upstream.put(tag, image(tag, minor, minor == 7 ? ScriptedUpstream.Behaviour.WRONG_BYTES
                    : ScriptedUpstream.Behaviour.NORMAL));
        }
        for (String tag : List.of("edge", "stable", "latest", "2.0")) {
            upstream.put(tag, image(tag, tag.hashCode(), ScriptedUpstream.Behaviour.NORMAL));
        }
        // The range leaves out 1.0 .. 1.4, and edge and stable, which are no version; 2.0 and latest match no pattern.
        List<String> selected = List.of("1.10", "1.11", "1.5", "1.6", "1.7", "1.8", "1.9");
        double failuresBefore = counter("layerfold.mirror.failures");
        String tagList = "/open/v2/" + REPOSITORY + "/tags/list";
        int pagesBefore = UPSTREAM.requests("GET", tagList);

        job.run();
        assertThat(UPSTREAM.requests("GET", tagList) - pagesBefore).as("tag list pages read").isEqualTo(2);
        MirrorRun first = job.lastRun().orElseThrow();
        assertThat(first.repositoriesSelected()).isEqualTo(1);
        assertThat(first.tagsSelected()).isEqualTo(7);
        assertThat(first.tagsMirrored()).isEqualTo(6);
        assertThat(first.failures()).isEqualTo(1);
        assertThat(first.error()).startsWith("1.7: ");
        assertThat(counter("layerfold.mirror.failures")).isEqualTo(failuresBefore + 1);
        for (Map.Entry<String, Image> tag : upstream.entrySet()) {
            boolean mirrored = selected.contains(tag.getKey()) && !tag.getKey().equals("1.7");
            assertThat(metadata.tag(LOCAL, tag.getKey())).as(tag.getKey())
                    .isEqualTo(mirrored ? java.util.Optional.of(tag.getValue().manifest()) : java.util.Optional.empty());
            if (mirrored) {
                assertThat(blobs.size(tag.getValue().layer())).as(tag.getKey()).contains(20_000L);
            }
        }
        // Of 1.7, the config was stored before its layer came wrong; nothing of the layer is kept.
        Image failed = upstream.get("1.7");
        assertThat(blobs.size(failed.config())).isPresent();
        assertThat(blobs.size(failed.layer())).isEmpty();
        assertThat(Observers.EVENTS).filteredOn(event -> event.action() == RegistryEvent.Action.MIRROR)
                .extracting(event -> event.tag().orElseThrow())
                .containsExactlyInAnyOrder("1.10", "1.11", "1.5", "1.6", "1.8", "1.9");

        // The upstream mends the blob: the next run fetches the layer and the manifest of 1.7, not its config again.
        UPSTREAM.blob(failed.layerBytes(), ScriptedUpstream.Behaviour.NORMAL);
        int configGets = UPSTREAM.requests("GET", "/open/v2/" + REPOSITORY + "/blobs/" + failed.config());
        double blobsBefore = counter("layerfold.mirror.blobs.fetched");
        double bytesBefore = counter("layerfold.mirror.fetched");
        job.run();
        MirrorRun second = job.lastRun().orElseThrow();
        assertThat(second.tagsMirrored()).isEqualTo(1);
        assertThat(second.failures()).isZero();
        assertThat(metadata.tag(LOCAL, "1.7")).contains(failed.manifest());
        assertThat(counter("layerfold.mirror.blobs.fetched")).isEqualTo(blobsBefore + 1);
        assertThat(counter("layerfold.mirror.fetched")).isEqualTo(bytesBefore + 20_000);
        assertThat(UPSTREAM.requests("GET", "/open/v2/" + REPOSITORY + "/blobs/" + failed.config())).isEqualTo(configGets);
        assertThat(meters.find("layerfold.mirror.last.success.timestamp").tag("rule", RULE).gauge().value()).isPositive();

        // Nothing new upstream: a run sends HEADs and tag list pages, and no GET of a manifest or blob.
        int gets = upstream.values().stream().mapToInt(this::upstreamGets).sum();
        double manifestsBefore = counter("layerfold.mirror.manifests.fetched");
        job.run();
        assertThat(job.lastRun().orElseThrow().tagsMirrored()).isZero();
        assertThat(upstream.values().stream().mapToInt(this::upstreamGets).sum()).isEqualTo(gets);
        assertThat(counter("layerfold.mirror.manifests.fetched")).isEqualTo(manifestsBefore);
        assertThat(Observers.EVENTS).filteredOn(event -> event.action() == RegistryEvent.Action.MIRROR).hasSize(7);
    }
}
