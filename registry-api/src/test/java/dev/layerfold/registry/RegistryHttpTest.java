package dev.layerfold.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the HTTP-level tests: a real registry on a random port over the embedded stores, spoken to
 * with java.net.http. Every test works in repositories of its own (see {@link #uniqueRepository}),
 * so test classes share one application context.
 */
@SpringBootTest(classes = TestRegistryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class RegistryHttpTest {

    protected static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    protected static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    protected static final String OCI_CONFIG = "application/vnd.oci.image.config.v1+json";
    protected static final String OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    protected int port;

    @Autowired
    protected JsonMapper json;

    protected static String uniqueRepository(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected Request request(String method, String path) {
        return new Request(method, path);
    }

    /** A request under construction; {@link #send()} returns the response with its body as bytes. */
    protected final class Request {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] body;

        private Request(String method, String path) {
            this.method = method;
            this.path = path;
        }

        public Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public Request body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        public Request body(String text) {
            return body(text.getBytes(StandardCharsets.UTF_8));
        }

        public HttpResponse<byte[]> send() throws IOException, InterruptedException {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(builder::header);
            return CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        }
    }

    /** Pushes a blob in one POST and checks it was created. */
    protected Digest pushBlob(String repository, byte[] bytes) throws Exception {
        Digest digest = Digest.sha256(bytes);
        HttpResponse<byte[]> response = request("POST", "/v2/" + repository + "/blobs/uploads/?digest=" + digest)
                .header("Content-Type", "application/octet-stream").body(bytes).send();
        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
        return digest;
    }

    protected Digest pushBlob(String repository, String content) throws Exception {
        return pushBlob(repository, content.getBytes(StandardCharsets.UTF_8));
    }

    /** Pushes a manifest and checks it was created; returns its digest. */
    protected Digest pushManifest(String repository, String reference, String mediaType, byte[] manifest) throws Exception {
        HttpResponse<byte[]> response = request("PUT", "/v2/" + repository + "/manifests/" + reference)
                .header("Content-Type", mediaType).body(manifest).send();
        assertThat(response.statusCode()).as(text(response)).isEqualTo(201);
        return Digest.parse(response.headers().firstValue("Docker-Content-Digest").orElseThrow());
    }

    /** An OCI image manifest of a config and layers already pushed to the repository. */
    protected byte[] imageManifest(Digest config, long configSize, Digest... layers) {
        StringBuilder json = new StringBuilder("{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\","
                + "\"config\":" + descriptor(OCI_CONFIG, config, configSize) + ",\"layers\":[");
        for (int i = 0; i < layers.length; i++) {
            json.append(i == 0 ? "" : ",").append(descriptor(OCI_LAYER, layers[i], 1));
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Pushes a config and a layer and a manifest of them under {@code tag}; returns the manifest's digest. */
    protected Digest pushImage(String repository, String tag) throws Exception {
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"tag\":\"" + tag + "\"}").getBytes(StandardCharsets.UTF_8);
        Digest configDigest = pushBlob(repository, config);
        Digest layer = pushBlob(repository, "layer of " + repository + ":" + tag);
        return pushManifest(repository, tag, OCI_MANIFEST, imageManifest(configDigest, config.length, layer));
    }

    protected static String descriptor(String mediaType, Digest digest, long size) {
        return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + digest + "\",\"size\":" + size + "}";
    }

    protected JsonNode jsonBody(HttpResponse<byte[]> response) {
        return json.readTree(response.body());
    }

    /** The code of the first error in an error response. */
    protected String errorCode(HttpResponse<byte[]> response) {
        return jsonBody(response).get("errors").get(0).get("code").stringValue();
    }

    protected static String text(HttpResponse<byte[]> response) {
        return response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8);
    }
}
