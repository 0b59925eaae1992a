package dev.layerfold.e2e.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Crane;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A mirror rule that selects repositories by glob ({@code e2e/lib/*}) from a real upstream's catalog, the
 * CNCF distribution registry filled by skopeo: the repositories the glob selects are mirrored before any
 * client asks and pulled back byte for byte; a repository one level deeper, and one under another name,
 * are not.
 */
class MirrorGlobTest {

    private static final String PREFIX = "glob.test";
    private static final String RULE = "rule=\"" + PREFIX + "/e2e/lib/*\"";
    private static final Platform AMD64 = new Platform("linux", "amd64");
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final Path TARGET = Path.of("target");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theGlobSelectsRepositoriesFromTheUpstreamsCatalog() throws Exception {
        Files.createDirectories(TARGET);
        Path work = Files.createTempDirectory(TARGET.toAbsolutePath(), "e2e-mirror-glob-");
        Skopeo skopeo = Skopeo.onPath();
        Crane crane = Crane.installed();
        try (RegistryProcess upstream = ReferenceRegistryProcess.start(work.resolve("upstream"), TARGET.resolve("registry-logs"))) {
            OciLayout pushed = OciLayout.create(work.resolve("pushed"));
            ImageWriter images = new ImageWriter(pushed);
            ImageWriter.Layer shared = images.layer(1, 3, 60_000);
            Map<String, Descriptor> repositories = Map.of(
                    "e2e/lib/alpha", images.image(AMD64, List.of(shared, images.layer(2, 2, 30_000))),
                    "e2e/lib/beta", images.image(AMD64, List.of(shared, images.layer(3, 2, 30_000))),
                    "e2e/lib/beta/tools", images.image(AMD64, List.of(images.layer(4, 2, 30_000))),
                    "e2e/other", images.image(AMD64, List.of(images.layer(5, 2, 30_000))));
            for (Map.Entry<String, Descriptor> repository : repositories.entrySet()) {
                String layoutTag = repository.getKey().replace('/', '-');
                pushed.tag(layoutTag, repository.getValue());
                skopeo.copy(pushed.skopeoReference(layoutTag), "docker://" + upstream.hostAndPort() + "/" + repository.getKey() + ":v1",
                        "--preserve-digests", "--dest-tls-verify=false");
            }

            try (RegistryProcess layerfold = LayerfoldProcess.start("256m", work.resolve("layerfold"), TARGET.resolve("registry-logs"),
                    List.of(), Map.of(
                            "layerfold.proxy.upstreams[0].prefix", PREFIX,
                            "layerfold.proxy.upstreams[0].url", upstream.baseUri().toString(),
                            "layerfold.mirror.rules[0].upstream", PREFIX,
                            "layerfold.mirror.rules[0].repository", "e2e/lib/*",
                            "layerfold.mirror.rules[0].interval", "1h"))) {
                awaitMetric(layerfold, "layerfold_mirror_runs_total", 1);
                assertThat(metric(layerfold, "layerfold_mirror_tags_mirrored_total")).isEqualTo(2);
                assertThat(metric(layerfold, "layerfold_mirror_failures_total")).isZero();

                double blobRequests = upstreamMetric(layerfold, "layerfold_upstream_requests_total", "kind=\"blob\"");
                assertThat(upstreamMetric(layerfold, "layerfold_upstream_requests_total", "kind=\"catalog\"")).isEqualTo(1);
                HttpResponse<String> status = HTTP.send(HttpRequest.newBuilder(layerfold.managementUri().resolve("/actuator/mirror"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
                JsonNode lastRun = JSON.readTree(status.body()).path("rules").path(0).path("lastRun");
                assertThat(lastRun.path("repositoriesSelected").asInt()).as(status.body()).isEqualTo(2);
                assertThat(lastRun.path("tagsMirrored").asInt()).as(status.body()).isEqualTo(2);
                for (String selected : List.of("e2e/lib/alpha", "e2e/lib/beta")) {
                    assertThat(localTags(layerfold, selected)).as(selected).containsExactly("v1");
                    Path pulled = work.resolve("pulled-" + selected.replace('/', '-'));
                    crane.pull(layerfold.hostAndPort() + "/" + PREFIX + "/" + selected + ":v1", pulled);
                    OciLayout layout = OciLayout.open(pulled);
                    String manifest = repositories.get(selected).digest();
                    assertThat(layout.closure(manifest)).isEqualTo(pushed.closure(manifest));
                    for (String blob : pushed.closure(manifest)) {
                        assertThat(layout.readBlob(blob)).as("bytes of %s", blob).isEqualTo(pushed.readBlob(blob));
                    }
                }
                // Pulled from what the mirror stored: no blob fetched on demand.
                assertThat(upstreamMetric(layerfold, "layerfold_upstream_requests_total", "kind=\"blob\"")).isEqualTo(blobRequests);
                // Not selected: one level deeper than the glob's *, and another name. Nothing of them was fetched.
                for (String left : List.of("e2e/lib/beta/tools", "e2e/other")) {
                    assertThat(localTags(layerfold, left)).as(left).isEmpty();
                    String layer = JSON.readTree(pushed.readBlob(repositories.get(left).digest())).path("layers").path(0)
                            .path("digest").asString().substring("sha256:".length());
                    try (Stream<Path> files = Files.walk(work.resolve("layerfold"))) {
                        assertThat(files.filter(file -> file.getFileName().toString().equals(layer))).as(left).isEmpty();
                    }
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(work)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /** The repository's tags here; empty if it has none (the registry answers 404 for a repository it does not hold). */
    private static List<String> localTags(RegistryProcess layerfold, String repository) throws Exception {
        // A GET of the tag list does not pull through: it shows what is held.
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(layerfold.baseUri()
                .resolve("/v2/" + PREFIX + "/" + repository + "/tags/list")).build(), HttpResponse.BodyHandlers.ofString());
        List<String> tags = new ArrayList<>();
        if (answer.statusCode() == 404) {
            return tags;
        }
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode parsed = JSON.readTree(answer.body());
        parsed.path("tags").forEach(tag -> tags.add(tag.asString()));
        return tags;
    }

    private static void awaitMetric(RegistryProcess layerfold, String name, double atLeast) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (metric(layerfold, name) < atLeast) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(name + " did not reach " + atLeast + " within " + PATIENCE + "\n" + layerfold.logTail());
            }
            Thread.sleep(200);
        }
    }

    private static double metric(RegistryProcess layerfold, String name) throws Exception {
        return samples(layerfold, name, RULE);
    }

    private static double upstreamMetric(RegistryProcess layerfold, String name, String labels) throws Exception {
        return samples(layerfold, name, "upstream=\"" + PREFIX + "\"", labels);
    }

    /** The sum of the samples of a metric whose labels contain all of {@code labels}. */
    private static double samples(RegistryProcess layerfold, String name, String... labels) throws Exception {
        HttpResponse<String> scrape = HTTP.send(HttpRequest.newBuilder(layerfold.managementUri()
                .resolve("/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body().lines()
                .filter(line -> line.startsWith(name + "{") && Stream.of(labels).allMatch(line::contains))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
