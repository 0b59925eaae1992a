package dev.layerfold.benchmark.dedup;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.storage.Digest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pushes images (config, layers, then the OCI manifest that queues the layers for dedup) and drives the
 * registry's {@code /actuator/dedup}; blobs go through the e2e harness's {@link BlobClient}.
 */
public final class ImageClient implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI registry;
    private final URI management;
    private final BlobClient blobs;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** {@code registry} serves the API, {@code management} the dedup endpoint and metrics. */
    public ImageClient(URI registry, URI management) {
        this.registry = registry;
        this.management = management;
        this.blobs = new BlobClient(registry);
    }

    BlobClient blobs() {
        return blobs;
    }

    /** Pushes the layers, a config naming {@code tag}, and the manifest, as {@code repository:tag}; answers the manifest's digest. */
    public Digest push(String repository, String tag, List<ProducedLayer> layers) throws IOException {
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Labels\":{\"tag\":\"" + tag + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
        Digest configDigest = Digest.sha256(config);
        blobs.pushMonolithic(repository, configDigest.toString(), config.length, new ByteArrayInputStream(config));
        StringBuilder descriptors = new StringBuilder();
        for (ProducedLayer layer : layers) {
            blobs.pushMonolithic(repository, layer.digest().toString(), layer.blob().length, new ByteArrayInputStream(layer.blob()));
            descriptors.append(descriptors.isEmpty() ? "" : ",").append(descriptor(layer.producer().mediaType(), layer.digest(), layer.blob().length));
        }
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":"
                + descriptor("application/vnd.oci.image.config.v1+json", configDigest, config.length) + ",\"layers\":[" + descriptors + "]}";
        HttpResponse<String> put = send(HttpRequest.newBuilder(registry.resolve("/v2/" + repository + "/manifests/" + tag))
                .header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString(manifest)));
        if (put.statusCode() != 201) {
            throw new IOException("manifest PUT " + repository + ":" + tag + " answered " + put.statusCode() + ": " + put.body());
        }
        return Digest.sha256(manifest.getBytes(StandardCharsets.UTF_8));
    }

    private static String descriptor(String mediaType, Digest digest, long size) {
        return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + digest + "\",\"size\":" + size + "}";
    }

    /** Waits until the dedup backlog is empty; the answer holds {@code settled} and the totals. */
    public JsonNode settle(Duration timeout) throws IOException {
        HttpResponse<String> settled = send(HttpRequest.newBuilder(management.resolve("/actuator/dedup"))
                .header("Content-Type", "application/json").timeout(timeout.plusMinutes(1))
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":" + timeout.toSeconds() + "}")));
        if (settled.statusCode() != 200) {
            throw new IOException("POST /actuator/dedup answered " + settled.statusCode() + ": " + settled.body());
        }
        return JSON.readTree(settled.body());
    }

    /** The sum of a metric's series on the registry's Prometheus endpoint ({@code name} as Prometheus spells it). */
    public double metric(String name) throws IOException {
        HttpResponse<String> scraped = send(HttpRequest.newBuilder(management.resolve("/actuator/prometheus")).GET());
        if (scraped.statusCode() != 200) {
            throw new IOException("GET /actuator/prometheus answered " + scraped.statusCode());
        }
        return scraped.body().lines().filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** Whether the registry still answers {@code GET /v2/}. */
    boolean answers() {
        try {
            return send(HttpRequest.newBuilder(registry.resolve("/v2/")).timeout(Duration.ofSeconds(10)).GET()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        blobs.close();
        http.close();
    }
}
