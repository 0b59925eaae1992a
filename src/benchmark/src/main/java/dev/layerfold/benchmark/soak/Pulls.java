package dev.layerfold.benchmark.soak;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.load.LargeManifest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/** What a normal client pulls: a small blob and a small manifest, one request at a time, timed. */
final class Pulls {

    private static final int SMALL_BLOB_SIZE = 4 * 1024;

    private final HttpClient http;
    private final URI blob;
    private final URI manifest;

    private Pulls(HttpClient http, URI blob, URI manifest) {
        this.http = http;
        this.blob = blob;
        this.manifest = manifest;
    }

    /** Pushes the small blob and a small manifest to pull. */
    static Pulls seed(URI base, BlobClient blobs, HttpClient http, String repository) throws Exception {
        String small = Sha256.of(new GeneratedContent(7, SMALL_BLOB_SIZE));
        blobs.pushMonolithic(repository, small, SMALL_BLOB_SIZE, new GeneratedContent(7, SMALL_BLOB_SIZE));
        pushManifest(http, base, repository, "small", LargeManifest.of(blobs, repository, 1024, 'm'));
        return new Pulls(http, base.resolve("/v2/" + repository + "/blobs/" + small),
                base.resolve("/v2/" + repository + "/manifests/small"));
    }

    static void pushManifest(HttpClient http, URI base, String repository, String tag, byte[] manifest)
            throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve("/v2/" + repository + "/manifests/" + tag))
                .header("Content-Type", LargeManifest.MEDIA_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("pushing manifest " + tag + " failed: " + response.statusCode() + " " + response.body());
        }
    }

    /** Pulls the blob and the manifest {@code count} times each, adding each latency in ms. */
    void measure(int count, List<Double> blobLatencies, List<Double> manifestLatencies) throws Exception {
        for (int i = 0; i < count; i++) {
            blobLatencies.add(timed(blob));
            manifestLatencies.add(timed(manifest));
        }
    }

    private double timed(URI uri) throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).header("Accept", "*/*").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        double millis = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
        }
        return millis;
    }
}
