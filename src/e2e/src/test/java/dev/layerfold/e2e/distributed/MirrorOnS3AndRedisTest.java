package dev.layerfold.e2e.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Layerfold nodes on one S3 bucket and one Redis with the same mirror rule, started together,
 * against the CNCF registry behind a slow proxy (a run takes seconds): one node runs the rule while
 * the other, under the rule's lease, leaves its turn out; the image is fetched once in all, and the
 * other node's later runs find it whole and fetch nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MirrorOnS3AndRedisTest {

    private static final String RULE = "rule=\"up/e2e/mirrored\"";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration PATIENCE = Duration.ofMinutes(3);

    private RegistryProcess upstream;
    private ThrottledProxy slow;
    private LayerfoldNodes cluster;

    @BeforeAll
    void start(@TempDir Path data) throws Exception {
        upstream = ReferenceRegistryProcess.start(data.resolve("upstream"), Path.of("target", "registry-logs"));
        OciLayout layout = OciLayout.create(data.resolve("image"));
        ImageWriter images = new ImageWriter(layout);
        // 12 MiB of incompressible files at 2 MiB/s: a run holds the rule for about six seconds.
        Descriptor image = images.image(new ImageWriter.Platform("linux", "amd64"), List.of(images.layer(21, 12, 1 << 20)));
        layout.tag("v1", image);
        Skopeo.onPath().copy(layout.skopeoReference("v1"), "docker://" + upstream.hostAndPort() + "/e2e/mirrored:v1",
                "--preserve-digests", "--dest-tls-verify=false");
        slow = ThrottledProxy.to(upstream, 2L << 20);
        Map<String, String> properties = new HashMap<>(Backends.newS3AndRedis());
        properties.put("layerfold.proxy.upstreams[0].prefix", "up");
        properties.put("layerfold.proxy.upstreams[0].url", slow.baseUri().toString());
        properties.put("layerfold.mirror.rules[0].upstream", "up");
        properties.put("layerfold.mirror.rules[0].repository", "e2e/mirrored");
        properties.put("layerfold.mirror.rules[0].interval", "1s");
        cluster = LayerfoldNodes.start(List.of(data.resolve("first"), data.resolve("second")), properties);
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (slow != null) {
            slow.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void oneNodeRunsTheRuleAtATimeAndTheImageIsFetchedOnce() throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        // Both nodes have run the rule since the image arrived: each then found it whole.
        while (sum("layerfold_mirror_tags_mirrored_total") < 1 || node(0, "layerfold_mirror_runs_total") < 2
                || node(1, "layerfold_mirror_runs_total") < 2) {
            assertThat(Instant.now()).as("both nodes ran the rule twice within " + PATIENCE).isBefore(deadline);
            Thread.sleep(250);
        }
        assertThat(sum("layerfold_mirror_runs_skipped_total")).as("turns left out while the other node ran the rule")
                .isPositive();
        assertThat(sum("layerfold_mirror_tags_mirrored_total")).isEqualTo(1);
        assertThat(sum("layerfold_mirror_manifests_fetched_total")).isEqualTo(1);
        assertThat(sum("layerfold_mirror_blobs_fetched_total")).isEqualTo(2);
        assertThat(sum("layerfold_mirror_failures_total")).isZero();
    }

    private double sum(String name) throws Exception {
        return node(0, name) + node(1, name);
    }

    private double node(int index, String name) throws Exception {
        HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(cluster.get(index).process().managementUri()
                .resolve("/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body().lines().filter(line -> line.startsWith(name + "{") && line.contains(RULE))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
