package dev.layerfold.registry.referrer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ReferrersTest extends RegistryHttpTest {

    private static final String SBOM = "application/vnd.example.sbom";
    private static final String SIGNATURE = "application/vnd.example.signature";

    @Test
    void referrersOfASubjectAreListedAsAnOciIndex() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        Digest sbom = pushArtifact(repository, subject, SBOM, "{\"org.example.kind\":\"sbom\"}");
        Digest signature = pushArtifact(repository, subject, SIGNATURE, null);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/referrers/" + subject).send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(OCI_INDEX);
        JsonNode index = jsonBody(response);
        assertThat(index.get("schemaVersion").intValue()).isEqualTo(2);
        assertThat(index.get("mediaType").stringValue()).isEqualTo(OCI_INDEX);
        assertThat(index.get("manifests")).hasSize(2);
        JsonNode sbomEntry = entryFor(index, sbom);
        assertThat(sbomEntry.get("mediaType").stringValue()).isEqualTo(OCI_MANIFEST);
        assertThat(sbomEntry.get("artifactType").stringValue()).isEqualTo(SBOM);
        assertThat(sbomEntry.get("size").longValue()).isPositive();
        assertThat(sbomEntry.get("annotations").get("org.example.kind").stringValue()).isEqualTo("sbom");
        assertThat(entryFor(index, signature).get("artifactType").stringValue()).isEqualTo(SIGNATURE);
    }

    @Test
    void referrersArePagedWithNAndLinkHeadersKeepingTheFilter() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            expected.add(pushArtifact(repository, subject, SBOM, "{\"n\":\"" + i + "\"}").toString());
        }
        pushArtifact(repository, subject, SIGNATURE, null);
        Collections.sort(expected);

        HttpResponse<byte[]> first = request("GET", "/v2/" + repository + "/referrers/" + subject + "?artifactType=" + SBOM + "&n=2").send();
        String link = first.headers().firstValue("Link").orElseThrow();
        HttpResponse<byte[]> second = request("GET", link.substring(1, link.indexOf('>'))).send();

        assertThat(digests(first)).containsExactly(expected.get(0), expected.get(1));
        assertThat(link).contains("artifactType=").endsWith(">; rel=\"next\"");
        assertThat(digests(second)).containsExactly(expected.get(2));
        assertThat(second.headers().firstValue("Link")).isEmpty();
    }

    private List<String> digests(HttpResponse<byte[]> response) {
        List<String> digests = new ArrayList<>();
        jsonBody(response).get("manifests").forEach(entry -> digests.add(entry.get("digest").stringValue()));
        return digests;
    }

    @Test
    void artifactTypeFilterKeepsMatchingReferrersAndSaysItWasApplied() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        Digest sbom = pushArtifact(repository, subject, SBOM, null);
        pushArtifact(repository, subject, SIGNATURE, null);

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/referrers/" + subject + "?artifactType=" + SBOM).send();

        assertThat(response.headers().firstValue("OCI-Filters-Applied")).hasValue("artifactType");
        assertThat(jsonBody(response).get("manifests")).hasSize(1);
        assertThat(jsonBody(response).get("manifests").get(0).get("digest").stringValue()).isEqualTo(sbom.toString());
    }

    @Test
    void artifactTypeWithAnUnescapedPlusStillMatches() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        pushArtifact(repository, subject, "application/vnd.example.sbom+json", null);

        HttpResponse<byte[]> raw = request("GET", "/v2/" + repository + "/referrers/" + subject
                + "?artifactType=application/vnd.example.sbom+json").send();
        HttpResponse<byte[]> escaped = request("GET", "/v2/" + repository + "/referrers/" + subject
                + "?artifactType=application%2Fvnd.example.sbom%2Bjson").send();

        assertThat(jsonBody(raw).get("manifests")).hasSize(1);
        assertThat(jsonBody(escaped).get("manifests")).hasSize(1);
    }

    @Test
    void pushingAManifestWithASubjectAnswersWithOciSubject() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = Digest.sha256("a subject that was never pushed".getBytes(StandardCharsets.UTF_8));
        Digest config = pushBlob(repository, "{}");

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/sig")
                .header("Content-Type", OCI_MANIFEST).body(artifact(config, subject, SIGNATURE, null)).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
        assertThat(response.headers().firstValue("OCI-Subject")).hasValue(subject.toString());
    }

    @Test
    void unknownSubjectHasAnEmptyIndexNotA404() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/" + uniqueRepository("referrers") + "/referrers/"
                + Digest.sha256(new byte[5])).send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(jsonBody(response).get("manifests")).isEmpty();
    }

    @Test
    void deletingAReferrerRemovesItFromTheList() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        Digest sbom = pushArtifact(repository, subject, SBOM, null);

        request("DELETE", "/v2/" + repository + "/manifests/" + sbom).send();
        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/referrers/" + subject).send();

        assertThat(jsonBody(response).get("manifests")).isEmpty();
    }

    @Test
    void imageManifestWithoutArtifactTypeIsListedUnderItsConfigMediaType() throws Exception {
        String repository = uniqueRepository("referrers");
        Digest subject = pushImage(repository, "v1");
        Digest config = pushBlob(repository, "{}");
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                + descriptor("application/vnd.example.config+json", config, 2) + ",\"layers\":[],\"subject\":"
                + descriptor(OCI_MANIFEST, subject, 100) + "}";
        pushManifest(repository, "attached", OCI_MANIFEST, manifest.getBytes(StandardCharsets.UTF_8));

        HttpResponse<byte[]> response = request("GET", "/v2/" + repository + "/referrers/" + subject).send();

        assertThat(jsonBody(response).get("manifests").get(0).get("artifactType").stringValue())
                .isEqualTo("application/vnd.example.config+json");
    }

    @Test
    void malformedSubjectDigestIsDigestInvalid() throws Exception {
        HttpResponse<byte[]> response = request("GET", "/v2/" + uniqueRepository("referrers") + "/referrers/sha256:xyz").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("DIGEST_INVALID");
    }

    private Digest pushArtifact(String repository, Digest subject, String artifactType, String annotations) throws Exception {
        Digest config = pushBlob(repository, "{}");
        byte[] manifest = artifact(config, subject, artifactType, annotations);
        return pushManifest(repository, Digest.sha256(manifest).toString(), OCI_MANIFEST, manifest);
    }

    private byte[] artifact(Digest emptyConfig, Digest subject, String artifactType, String annotations) {
        return ("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"artifactType\":\"" + artifactType + "\","
                + "\"config\":" + descriptor("application/vnd.oci.empty.v1+json", emptyConfig, 2) + ",\"layers\":[],"
                + "\"subject\":" + descriptor(OCI_MANIFEST, subject, 100)
                + (annotations == null ? "" : ",\"annotations\":" + annotations) + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode entryFor(JsonNode index, Digest digest) {
        for (JsonNode entry : index.get("manifests")) {
            if (entry.get("digest").stringValue().equals(digest.toString())) {
                return entry;
            }
        }
        throw new AssertionError("no referrer " + digest + " in " + index);
    }
}
