package dev.layerfold.e2e.auth;

import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the rows act on: repository {@code matrix/app} with a tagged image and a referrer of it, pushed
 * by the user allowed to push, and fresh things for each cell that deletes or writes (a manifest and a
 * blob to delete, an upload session), so that every cell finds the registry as the table assumes.
 * {@code matrix/absent} never exists: denials there must read as on {@code matrix/app}.
 */
final class MatrixFixture {

    static final String REPOSITORY = "matrix/app";
    static final String ABSENT = "matrix/absent";
    static final String TAG = "v1";
    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final String OCI_CONFIG = "application/vnd.oci.image.config.v1+json";

    private final URI registry;
    private final String pusher;
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicInteger fresh = new AtomicInteger();
    private final Map<String, Integer> sizes = new ConcurrentHashMap<>();
    private final String layer;
    private final String config;
    private final byte[] manifest;
    private final String manifestDigest;

    /** Pushes the image and a referrer of it, signed in as {@code user} with Basic credentials. */
    MatrixFixture(URI registry, String user, String password) throws IOException, InterruptedException {
        this.registry = registry;
        this.pusher = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.layer = pushBlob(("layer of the authorization matrix").getBytes(StandardCharsets.UTF_8));
        this.config = pushBlob("{\"architecture\":\"amd64\",\"os\":\"linux\"}".getBytes(StandardCharsets.UTF_8));
        this.manifest = manifest(config, null);
        this.manifestDigest = pushManifest(TAG, manifest);
        pushManifest("referrer", manifest(config, manifestDigest));
    }

    String layerDigest() {
        return layer;
    }

    String manifestDigest() {
        return manifestDigest;
    }

    byte[] manifestBytes() {
        return manifest;
    }

    /** A manifest pushed for one cell only (to be deleted), by digest. */
    String freshManifest() throws IOException, InterruptedException {
        String ownConfig = pushBlob(("{\"architecture\":\"amd64\",\"os\":\"linux\",\"cell\":" + fresh.incrementAndGet() + "}")
                .getBytes(StandardCharsets.UTF_8));
        return pushManifest(Sha256.of(ownConfig.getBytes(StandardCharsets.UTF_8)).substring(7, 19), manifest(ownConfig, null));
    }

    /** A blob pushed for one cell only (to be deleted). */
    String freshBlob() throws IOException, InterruptedException {
        return pushBlob(("blob of cell " + fresh.incrementAndGet()).getBytes(StandardCharsets.UTF_8));
    }

    /** A new upload session's path ({@code /v2/matrix/app/blobs/uploads/<id>}). */
    String freshUpload() throws IOException, InterruptedException {
        HttpResponse<String> started = send(HttpRequest.newBuilder(registry.resolve("/v2/" + REPOSITORY + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()), 202);
        String location = started.headers().firstValue("Location").orElseThrow();
        return URI.create(location).getPath();
    }

    private String pushBlob(byte[] bytes) throws IOException, InterruptedException {
        String digest = Sha256.of(bytes);
        sizes.put(digest, bytes.length);
        send(HttpRequest.newBuilder(registry.resolve("/v2/" + REPOSITORY + "/blobs/uploads/?digest=" + digest))
                .header("Content-Type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(bytes)), 201);
        return digest;
    }

    private String pushManifest(String reference, byte[] bytes) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(registry.resolve("/v2/" + REPOSITORY + "/manifests/" + reference))
                .header("Content-Type", OCI_MANIFEST).PUT(HttpRequest.BodyPublishers.ofByteArray(bytes)), 201);
        return Sha256.of(bytes);
    }

    private byte[] manifest(String configDigest, String subject) {
        String json = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":{\"mediaType\":\"" + OCI_CONFIG
                + "\",\"digest\":\"" + configDigest + "\",\"size\":" + sizes.get(configDigest) + "},\"layers\":[{\"mediaType\":"
                + "\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"" + layer + "\",\"size\":" + sizes.get(layer) + "}]"
                + (subject == null ? "" : ",\"subject\":{\"mediaType\":\"" + OCI_MANIFEST + "\",\"digest\":\"" + subject
                        + "\",\"size\":" + manifest.length + "}")
                + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private HttpResponse<String> send(HttpRequest.Builder request, int expected) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.header("Authorization", pusher).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException("fixture " + response.request().method() + " " + response.uri() + " answered "
                    + response.statusCode() + ", not " + expected + ": " + response.body());
        }
        return response;
    }
}
