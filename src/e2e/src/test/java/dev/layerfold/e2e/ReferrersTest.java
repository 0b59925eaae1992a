package dev.layerfold.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.MediaTypes;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Artifacts that point at an image (signatures, SBOMs), pushed by skopeo byte for byte, are found
 * through the referrers API, which filters them by artifact type.
 */
@ExtendWith(LayerfoldExtension.class)
class ReferrersTest {

    private static final String SBOM = "application/vnd.example.sbom.v1+json";
    private static final String SIGNATURE = "application/vnd.example.signature.v1+json";
    private static final String REPOSITORY = "e2e/referrers/app";

    private final Skopeo skopeo = Skopeo.onPath();

    @Test
    void pushedArtifactsAreListedAsReferrersOfTheirSubjectAndFilteredByArtifactType(
            RegistryProcess layerfold, @TempDir Path work) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve("layout"));
        ImageWriter images = new ImageWriter(layout);
        Descriptor image = images.image(new Platform("linux", "amd64"), List.of(images.layer(20, 2, 10_000)));
        Descriptor sbom = images.artifact(SBOM, "{\"packages\":[]}", image);
        Descriptor signature = images.artifact(SIGNATURE, "{\"signature\":\"c2ln\"}", image);
        layout.tag("app", image);
        layout.tag("sbom", sbom);
        layout.tag("signature", signature);
        for (String tag : List.of("app", "sbom", "signature")) {
            skopeo.copy(layout.skopeoReference(tag), "docker://" + layerfold.hostAndPort() + "/" + REPOSITORY + ":" + tag,
                    "--dest-tls-verify=false", "--preserve-digests");
        }

        HttpResponse<byte[]> all = referrers(layerfold, image.digest(), null);
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.headers().firstValue("Content-Type")).hasValue(MediaTypes.IMAGE_INDEX);
        assertThat(referrerDigestsByType(all)).containsExactlyInAnyOrder(
                sbom.digest() + " " + SBOM, signature.digest() + " " + SIGNATURE);

        HttpResponse<byte[]> sbomsOnly = referrers(layerfold, image.digest(), SBOM);
        assertThat(sbomsOnly.statusCode()).isEqualTo(200);
        assertThat(sbomsOnly.headers().firstValue("OCI-Filters-Applied")).hasValue("artifactType");
        assertThat(referrerDigestsByType(sbomsOnly)).containsExactly(sbom.digest() + " " + SBOM);
    }

    @Test
    void imageWithoutReferrersHasAnEmptyReferrersIndex(RegistryProcess layerfold, @TempDir Path work) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve("layout"));
        ImageWriter images = new ImageWriter(layout);
        Descriptor image = images.image(new Platform("linux", "amd64"), List.of(images.layer(21, 1, 1_000)));
        layout.tag("lonely", image);
        skopeo.copy(layout.skopeoReference("lonely"), "docker://" + layerfold.hostAndPort() + "/" + REPOSITORY + ":lonely",
                "--dest-tls-verify=false", "--preserve-digests");

        HttpResponse<byte[]> none = referrers(layerfold, image.digest(), null);

        assertThat(none.statusCode()).isEqualTo(200);
        assertThat(referrerDigestsByType(none)).isEmpty();
    }

    private static HttpResponse<byte[]> referrers(RegistryProcess registry, String digest, String artifactType)
            throws Exception {
        String query = artifactType == null ? "" : "?artifactType=" + URLEncoder.encode(artifactType, StandardCharsets.UTF_8);
        URI uri = registry.baseUri().resolve("/v2/" + REPOSITORY + "/referrers/" + digest + query);
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        }
    }

    /** "digest artifactType" of each referrer the index lists. */
    private static List<String> referrerDigestsByType(HttpResponse<byte[]> referrers) {
        JsonNode index = JsonMapper.builder().build().readTree(referrers.body());
        assertThat(index.path("mediaType").asString()).isEqualTo(MediaTypes.IMAGE_INDEX);
        return StreamSupport.stream(index.path("manifests").spliterator(), false)
                .map(entry -> entry.path("digest").asString() + " " + entry.path("artifactType").asString())
                .toList();
    }
}
