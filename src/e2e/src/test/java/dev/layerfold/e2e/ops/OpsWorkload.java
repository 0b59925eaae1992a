package dev.layerfold.e2e.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A small workload an operator would recognise: images in three repositories that share a base
 * layer, deduplicated, pulled back (rebuilt, then from the tiers), and a garbage collection, so that
 * every figure the dashboard and the operator's page show has something to show.
 */
final class OpsWorkload {

    private static final String LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    private static final String MANIFEST = "application/vnd.oci.image.manifest.v1+json";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI api;
    private final URI management;
    private final Map<String, Digest> pushed = new TreeMap<>();
    private final Map<String, List<Digest>> layers = new TreeMap<>();

    OpsWorkload(URI api, URI management) {
        this.api = api;
        this.management = management;
    }

    /** Pushes the images, waits until their layers are deduplicated, pulls them twice and collects garbage. */
    void run() throws IOException, InterruptedException {
        byte[] base = layer(files(new Random(11), "usr/lib/", 40, 20_000));
        push("platform/base", List.of(base));
        push("team-a/api", List.of(base, layer(files(new Random(12), "srv/api/", 8, 40_000))));
        push("team-b/worker", List.of(base, layer(files(new Random(13), "opt/worker/", 12, 30_000))));
        push("tools/debug", List.of(layer(files(new Random(14), "usr/bin/", 6, 25_000))));
        send("POST", management.resolve("/actuator/dedup"), "{\"timeoutSeconds\":120}", 200);
        for (int round = 0; round < 2; round++) {
            for (Map.Entry<String, Digest> image : pushed.entrySet()) {
                send("GET", api.resolve("/v2/" + image.getKey() + "/manifests/" + image.getValue()), null, 200);
                for (Digest layer : layers.get(image.getKey())) {
                    send("GET", api.resolve("/v2/" + image.getKey() + "/blobs/" + layer), null, 200);
                }
            }
        }
        send("POST", management.resolve("/actuator/gc"), "{\"action\":\"collect\"}", 200);
    }

    /** Repositories pushed to, and their manifests. */
    Map<String, Digest> pushed() {
        return pushed;
    }

    private void push(String repository, List<byte[]> blobs) throws IOException, InterruptedException {
        List<Digest> digests = new ArrayList<>();
        StringBuilder descriptors = new StringBuilder();
        for (byte[] blob : blobs) {
            Digest digest = upload(repository, blob);
            digests.add(digest);
            descriptors.append(descriptors.isEmpty() ? "" : ",").append("{\"mediaType\":\"").append(LAYER)
                    .append("\",\"digest\":\"").append(digest).append("\",\"size\":").append(blob.length).append('}');
        }
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"repository\":\"" + repository + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        Digest configDigest = upload(repository, config);
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + MANIFEST + "\",\"config\":{\"mediaType\":"
                + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + configDigest + "\",\"size\":" + config.length
                + "},\"layers\":[" + descriptors + "]}";
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(api.resolve("/v2/" + repository + "/manifests/latest"))
                .header("Content-Type", MANIFEST).PUT(HttpRequest.BodyPublishers.ofString(manifest)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        pushed.put(repository, Digest.parse(put.headers().firstValue("Docker-Content-Digest").orElseThrow()));
        layers.put(repository, digests);
    }

    private Digest upload(String repository, byte[] blob) throws IOException, InterruptedException {
        Digest digest = Digest.sha256(blob);
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(api.resolve("/v2/" + repository + "/blobs/uploads/?digest=" + digest))
                .POST(HttpRequest.BodyPublishers.ofByteArray(blob)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        return digest;
    }

    private void send(String method, URI uri, String json, int expected) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(3));
        if (json == null) {
            request.header("Accept", MANIFEST).method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as(method + " " + uri + ": " + new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo(expected);
    }

    private static Map<String, byte[]> files(Random random, String prefix, int count, int size) {
        Map<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            byte[] content = new byte[size + random.nextInt(size)];
            for (int j = 0; j < content.length; j++) {
                content[j] = (byte) ('a' + random.nextInt(16));
            }
            files.put(prefix + "file-" + i, content);
        }
        return files;
    }

    /** A gzip'd tar as Java tools write it (zlib level 6), which the codec reproduces. */
    private static byte[] layer(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(tar)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey());
                entry.setSize(file.getValue().length);
                out.putArchiveEntry(entry);
                out.write(file.getValue());
                out.closeArchiveEntry();
            }
        }
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(blob)) {
            gzip.write(tar.toByteArray());
        }
        return blob.toByteArray();
    }
}
