package dev.layerfold.registry.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ManifestPushTest extends RegistryHttpTest {

    private static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    private static final String DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";

    @Test
    void pushByTagReturnsLocationAndDigestAndPullReturnsTheExactBytes() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        Digest layer = pushBlob(repository, "layer");
        // Odd spacing on purpose: the registry must not re-serialise what it was given.
        byte[] manifest = ("{ \"schemaVersion\" : 2,\n  \"mediaType\": \"" + OCI_MANIFEST + "\", \"config\": "
                + descriptor(OCI_CONFIG, config, 2) + ", \"layers\": [" + descriptor(OCI_LAYER, layer, 5) + "] }\n")
                .getBytes(StandardCharsets.UTF_8);

        HttpResponse<byte[]> put = request("PUT", "/v2/" + repository + "/manifests/v1")
                .header("Content-Type", OCI_MANIFEST).body(manifest).send();
        HttpResponse<byte[]> byTag = request("GET", "/v2/" + repository + "/manifests/v1").send();
        HttpResponse<byte[]> byDigest = request("GET", "/v2/" + repository + "/manifests/" + Digest.sha256(manifest)).send();

        assertThat(put.statusCode()).as(text(put)).isEqualTo(201);
        assertThat(put.headers().firstValue("Docker-Content-Digest")).hasValue(Digest.sha256(manifest).toString());
        assertThat(put.headers().firstValue("Location")).hasValue("/v2/" + repository + "/manifests/" + Digest.sha256(manifest));
        assertThat(byTag.body()).isEqualTo(manifest);
        assertThat(byTag.headers().firstValue("Content-Type")).hasValue(OCI_MANIFEST);
        assertThat(byTag.headers().firstValue("Docker-Content-Digest")).hasValue(Digest.sha256(manifest).toString());
        assertThat(byDigest.body()).isEqualTo(manifest);
    }

    @Test
    void headDescribesTheManifestWithoutABody() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest digest = pushImage(repository, "latest");

        HttpResponse<byte[]> response = request("HEAD", "/v2/" + repository + "/manifests/latest").send();

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Docker-Content-Digest")).hasValue(digest.toString());
        assertThat(response.headers().firstValue("Content-Type")).hasValue(OCI_MANIFEST);
        assertThat(response.headers().firstValueAsLong("Content-Length").orElseThrow()).isPositive();
        assertThat(response.body()).isEmpty();
    }

    @Test
    void pushByDigestVerifiesTheDigest() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        byte[] manifest = imageManifest(config, 2);

        HttpResponse<byte[]> wrong = request("PUT", "/v2/" + repository + "/manifests/" + Digest.sha256(new byte[1]))
                .header("Content-Type", OCI_MANIFEST).body(manifest).send();
        HttpResponse<byte[]> right = request("PUT", "/v2/" + repository + "/manifests/" + Digest.sha256(manifest))
                .header("Content-Type", OCI_MANIFEST).body(manifest).send();

        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(errorCode(wrong)).isEqualTo("DIGEST_INVALID");
        assertThat(right.statusCode()).isEqualTo(201);
    }

    @Test
    void tagQueryParametersTagAManifestPushedByDigestAndAreConfirmedWithOciTag() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        byte[] manifest = imageManifest(config, 2);

        HttpResponse<byte[]> put = request("PUT", "/v2/" + repository + "/manifests/" + Digest.sha256(manifest) + "?tag=one&tag=two")
                .header("Content-Type", OCI_MANIFEST).body(manifest).send();

        assertThat(put.statusCode()).isEqualTo(201);
        assertThat(put.headers().allValues("OCI-Tag")).containsExactly("one", "two");
        assertThat(request("HEAD", "/v2/" + repository + "/manifests/one").send().statusCode()).isEqualTo(200);
        assertThat(request("HEAD", "/v2/" + repository + "/manifests/two").send().statusCode()).isEqualTo(200);
    }

    @Test
    void schema1ManifestIsRefusedWithAdviceToPushSchema2OrOci() throws Exception {
        String repository = uniqueRepository("manifests");
        String schema1 = "{\"schemaVersion\":1,\"name\":\"" + repository + "\",\"tag\":\"old\",\"fsLayers\":[]}";

        HttpResponse<byte[]> byContentType = request("PUT", "/v2/" + repository + "/manifests/old")
                .header("Content-Type", "application/vnd.docker.distribution.manifest.v1+prettyjws").body(schema1).send();
        HttpResponse<byte[]> byBody = request("PUT", "/v2/" + repository + "/manifests/old")
                .header("Content-Type", "application/json").body(schema1).send();

        assertThat(byContentType.statusCode()).isEqualTo(400);
        assertThat(errorCode(byContentType)).isEqualTo("MANIFEST_INVALID");
        assertThat(text(byContentType)).contains("schema 1").contains("schema 2 or OCI");
        assertThat(errorCode(byBody)).isEqualTo("MANIFEST_INVALID");
    }

    @Test
    void manifestWithMissingLayerIsRefusedNamingEachMissingBlob() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        Digest missing1 = Digest.sha256("never pushed 1".getBytes(StandardCharsets.UTF_8));
        Digest missing2 = Digest.sha256("never pushed 2".getBytes(StandardCharsets.UTF_8));

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/broken")
                .header("Content-Type", OCI_MANIFEST).body(imageManifest(config, 2, missing1, missing2)).send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("MANIFEST_BLOB_UNKNOWN");
        assertThat(jsonBody(response).get("errors")).hasSize(2);
        assertThat(jsonBody(response).get("errors").get(1).get("detail").get("digest").stringValue()).isEqualTo(missing2.toString());
        assertThat(request("HEAD", "/v2/" + repository + "/manifests/broken").send().statusCode()).isEqualTo(404);
    }

    @Test
    void layerPushedOnlyToAnotherRepositoryDoesNotCount() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        Digest foreignLayer = pushBlob(uniqueRepository("elsewhere"), "someone else's layer");

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/v1")
                .header("Content-Type", OCI_MANIFEST).body(imageManifest(config, 2, foreignLayer)).send();

        assertThat(errorCode(response)).isEqualTo("MANIFEST_BLOB_UNKNOWN");
    }

    @Test
    void nonDistributableLayersNeedNotBePushed() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        String foreign = "{\"mediaType\":\"application/vnd.docker.image.rootfs.foreign.diff.tar.gzip\",\"digest\":\""
                + Digest.sha256(new byte[3]) + "\",\"size\":3,\"urls\":[\"https://example.com/layer\"]}";
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + DOCKER_MANIFEST + "\",\"config\":"
                + descriptor("application/vnd.docker.container.image.v1+json", config, 2) + ",\"layers\":[" + foreign + "]}";

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/windows")
                .header("Content-Type", DOCKER_MANIFEST).body(manifest).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
    }

    @Test
    void indexReferencingAnUnknownManifestIsRefused() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest child = pushImage(repository, "amd64");
        Digest absent = Digest.sha256("no such manifest".getBytes(StandardCharsets.UTF_8));
        String index = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_INDEX + "\",\"manifests\":["
                + descriptor(OCI_MANIFEST, child, 100) + "," + descriptor(OCI_MANIFEST, absent, 100) + "]}";

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/multi")
                .header("Content-Type", OCI_INDEX).body(index).send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("MANIFEST_BLOB_UNKNOWN");
        assertThat(text(response)).contains(absent.toString()).doesNotContain(child.toString());
    }

    @Test
    void dockerManifestListOfPushedManifestsIsAccepted() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        Digest layer = pushBlob(repository, "docker layer");
        String image = "{\"schemaVersion\":2,\"mediaType\":\"" + DOCKER_MANIFEST + "\",\"config\":"
                + descriptor("application/vnd.docker.container.image.v1+json", config, 2) + ",\"layers\":["
                + descriptor("application/vnd.docker.image.rootfs.diff.tar.gzip", layer, 12) + "]}";
        Digest child = pushManifest(repository, "linux-amd64", DOCKER_MANIFEST, image.getBytes(StandardCharsets.UTF_8));
        String list = "{\"schemaVersion\":2,\"mediaType\":\"" + DOCKER_LIST + "\",\"manifests\":[{\"mediaType\":\""
                + DOCKER_MANIFEST + "\",\"digest\":\"" + child + "\",\"size\":" + image.length()
                + ",\"platform\":{\"architecture\":\"amd64\",\"os\":\"linux\"}}]}";

        pushManifest(repository, "latest", DOCKER_LIST, list.getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> pulled = request("GET", "/v2/" + repository + "/manifests/latest")
                .header("Accept", DOCKER_LIST + ", " + DOCKER_MANIFEST).send();

        assertThat(pulled.headers().firstValue("Content-Type")).hasValue(DOCKER_LIST);
        assertThat(new String(pulled.body(), StandardCharsets.UTF_8)).isEqualTo(list);
    }

    @Test
    void artifactManifestWithArtifactTypeAndEmptyLayersIsAccepted() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest empty = pushBlob(repository, "{}");
        String artifact = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"artifactType\":\"application/vnd.example.sbom\","
                + "\"config\":" + descriptor("application/vnd.oci.empty.v1+json", empty, 2) + ",\"layers\":[]}";

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/sbom")
                .header("Content-Type", OCI_MANIFEST).body(artifact).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
    }

    @Test
    void malformedManifestsAreRefusedWithAReason() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");

        assertInvalid(repository, OCI_MANIFEST, "{not json", "not valid JSON");
        assertInvalid(repository, OCI_MANIFEST, "[]", "JSON object");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":3}", "schemaVersion");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":2,\"layers\":[]}", "config");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":2,\"config\":{\"mediaType\":\"x\",\"digest\":\"sha256:12\",\"size\":1},\"layers\":[]}",
                "config.digest");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":2,\"config\":" + descriptor(OCI_CONFIG, config, -1) + ",\"layers\":[]}",
                "config.size");
        assertInvalid(repository, OCI_INDEX, "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                + descriptor(OCI_CONFIG, config, 2) + ",\"layers\":[]}", "disagrees");
        assertInvalid(repository, "application/vnd.example.unknown+json", "{\"schemaVersion\":2}", "unsupported manifest media type");
    }

    @Test
    void numbersBeyondALongAreRefusedNotAServerError() throws Exception {
        String repository = uniqueRepository("manifests");

        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":9223372036854775808}", "schemaVersion");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":1e32}", "schemaVersion");
        assertInvalid(repository, OCI_MANIFEST, "{\"schemaVersion\":-99999999999999999999999}", "schemaVersion");
    }

    /** Go clients read manifests as UTF-8 without a byte-order mark; anything else would be unreadable to them. */
    @Test
    void manifestsThatAreNotPlainUtf8AreRefused() throws Exception {
        String repository = uniqueRepository("manifests");
        Digest config = pushBlob(repository, "{}");
        String manifest = "{\"schemaVersion\":2,\"config\":" + descriptor(OCI_CONFIG, config, 2) + ",\"layers\":[]}";

        assertInvalidBytes(repository, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, manifest.getBytes(StandardCharsets.UTF_8)),
                "byte-order mark");
        assertInvalidBytes(repository, manifest.getBytes(StandardCharsets.UTF_16BE), "UTF-8");
        assertInvalidBytes(repository, manifest.getBytes(StandardCharsets.UTF_16), "UTF-8");
        assertInvalidBytes(repository, manifest.getBytes(StandardCharsets.UTF_16LE), "UTF-8");
        assertInvalidBytes(repository, manifest.getBytes(Charset.forName("UTF-32")), "UTF-8");
        // An overlong encoding of '/', a surrogate half, and a code point beyond U+10FFFF, inside a string.
        for (byte[] invalid : new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}}) {
            byte[] annotated = concat(("{\"schemaVersion\":2,\"annotations\":{\"a\":\"").getBytes(StandardCharsets.UTF_8),
                    concat(invalid, ("\"},\"config\":" + descriptor(OCI_CONFIG, config, 2) + ",\"layers\":[]}").getBytes(StandardCharsets.UTF_8)));
            assertInvalidBytes(repository, annotated, "UTF-8");
        }
        assertThat(request("PUT", "/v2/" + repository + "/manifests/good").header("Content-Type", OCI_MANIFEST)
                .body(manifest).send().statusCode()).isEqualTo(201);
    }

    private void assertInvalidBytes(String repository, byte[] manifest, String reason) throws Exception {
        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/bad")
                .header("Content-Type", OCI_MANIFEST).body(manifest).send();

        assertThat(response.statusCode()).as(text(response)).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("MANIFEST_INVALID");
        assertThat(text(response)).contains(reason);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    @Test
    void invalidTagIsRefused() throws Exception {
        String repository = uniqueRepository("manifests");

        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/.hidden")
                .header("Content-Type", OCI_MANIFEST).body("{}").send();

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(errorCode(response)).isEqualTo("MANIFEST_INVALID");
        assertThat(text(response)).contains("invalid tag");
    }

    private void assertInvalid(String repository, String contentType, String manifest, String reason) throws Exception {
        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/bad")
                .header("Content-Type", contentType).body(manifest).send();
        assertThat(response.statusCode()).as(manifest).isEqualTo(400);
        assertThat(errorCode(response)).as(manifest).isEqualTo("MANIFEST_INVALID");
        assertThat(text(response)).as(manifest).contains(reason);
    }
}
