package dev.layerfold.e2e.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads what a registry serves through the Distribution API (signed in with Basic credentials), and
 * checks it: every manifest and blob must hash to the digest it is asked for. The client matrix uses
 * it after each client's pull to check, independently of the client, every blob the client pushed.
 */
final class RegistryReader {

    static final String MANIFEST_TYPES = String.join(",",
            "application/vnd.oci.image.manifest.v1+json", "application/vnd.oci.image.index.v1+json",
            "application/vnd.docker.distribution.manifest.v2+json",
            "application/vnd.docker.distribution.manifest.list.v2+json");
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** A manifest as served: its bytes and media type. */
    record Manifest(byte[] bytes, String mediaType, String digest) {
        JsonNode json() {
            return JSON.readTree(bytes);
        }
    }

    private final URI base;
    private final String authorization;

    RegistryReader(String hostAndPort, String user, String password) {
        this.base = URI.create("http://" + hostAndPort);
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The manifest {@code reference} (tag or digest) names, checked against the digest the registry reports. */
    Manifest manifest(String repository, String reference) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = get("/v2/" + repository + "/manifests/" + reference, MANIFEST_TYPES);
        String digest = Sha256.of(response.body());
        assertThat(response.headers().firstValue("Docker-Content-Digest"))
                .as("Docker-Content-Digest of %s:%s", repository, reference).hasValue(digest);
        if (reference.startsWith("sha256:")) {
            assertThat(digest).as("digest of the manifest served for %s@%s", repository, reference).isEqualTo(reference);
        }
        return new Manifest(response.body(), response.headers().firstValue("Content-Type").orElse(""), digest);
    }

    /** The blob's bytes; fails unless they hash to {@code digest}. */
    byte[] blob(String repository, String digest) throws IOException, InterruptedException {
        byte[] bytes = get("/v2/" + repository + "/blobs/" + digest, "*/*").body();
        assertThat(Sha256.of(bytes)).as("digest of the bytes served for blob %s in %s", digest, repository)
                .isEqualTo(digest);
        return bytes;
    }

    /**
     * Pulls manifest {@code digest} and everything it is made of (an index's manifests, each manifest's
     * config and layers, recursively), checking each digest and size; returns the digests checked.
     */
    Set<String> assertIntact(String repository, String digest) throws IOException, InterruptedException {
        Set<String> checked = new LinkedHashSet<>();
        collect(repository, digest, checked);
        return checked;
    }

    private void collect(String repository, String digest, Set<String> checked) throws IOException, InterruptedException {
        JsonNode manifest = manifest(repository, digest).json();
        checked.add(digest);
        for (JsonNode child : manifest.path("manifests")) {
            collect(repository, child.path("digest").asString(), checked);
        }
        List<JsonNode> blobs = new ArrayList<>();
        if (manifest.has("config")) {
            blobs.add(manifest.path("config"));
        }
        manifest.path("layers").forEach(blobs::add);
        for (JsonNode descriptor : blobs) {
            String blobDigest = descriptor.path("digest").asString();
            if (checked.add(blobDigest)) {
                assertThat((long) blob(repository, blobDigest).length).as("size of blob %s", blobDigest)
                        .isEqualTo(descriptor.path("size").asLong());
            }
        }
    }

    /** The referrers index of {@code digest} (OCI 1.1 referrers API). */
    JsonNode referrers(String repository, String digest) throws IOException, InterruptedException {
        return JSON.readTree(get("/v2/" + repository + "/referrers/" + digest, "application/vnd.oci.image.index.v1+json")
                .body());
    }

    /** The repository's tags. */
    List<String> tags(String repository) throws IOException, InterruptedException {
        List<String> tags = new ArrayList<>();
        JSON.readTree(get("/v2/" + repository + "/tags/list", "application/json").body()).path("tags")
                .forEach(tag -> tags.add(tag.asString()));
        return tags;
    }

    private HttpResponse<byte[]> get(String path, String accept) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()) {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(base.resolve(path))
                    .header("Authorization", authorization).header("Accept", accept)
                    .timeout(Duration.ofMinutes(2)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            return response;
        }
    }
}
