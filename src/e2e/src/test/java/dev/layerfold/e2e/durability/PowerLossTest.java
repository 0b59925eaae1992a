package dev.layerfold.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.load.LargeManifest;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acknowledged pushes survive a power loss, not only a process crash: the packaged registry on the
 * embedded backends (filesystem blobs, SQLite) keeps its data on {@link CrashFs}, is killed with kill -9
 * at a random moment while clients push, and then the file system forgets everything not fsync'ed (file
 * data, and directory entries whose directory was not fsync'ed) before the registry starts again. Every
 * blob and manifest the registry acknowledged must be served intact, and whatever else it serves must be
 * whole (a blob or manifest under its digest, never a part of one).
 */
class PowerLossTest {

    private static final int POWER_LOSSES = 3;
    private static final int PUSHERS = 3;
    private static final String REPOSITORY = "durable/app";

    /** Digest to content of every blob and manifest the registry answered 201 for, across rounds. */
    private final Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
    /** Tag to manifest digest of every acknowledged manifest push. */
    private final Map<String, String> tags = new ConcurrentHashMap<>();
    /** Digest to content of pushes under way at a power loss (may or may not be there, but whole if they are). */
    private final Map<String, byte[]> attempted = new ConcurrentHashMap<>();

    @Test
    void acknowledgedPushesSurvivePowerLossAndNothingPartialIsServed(@TempDir Path work) throws Exception {
        Path target = Path.of("target");
        Path program = CrashFs.build(target.resolve("crashfs"));
        long seed = System.nanoTime();
        System.out.println("power-loss test seed " + seed);
        Random random = new Random(seed);
        Path backing = work.resolve("backing");
        // The data directory exists before the first mount, as an operator's would: durable from the start.
        java.nio.file.Files.createDirectories(backing.resolve("data"));
        Path mountPoint = work.resolve("mnt");
        for (int loss = 0; loss <= POWER_LOSSES; loss++) {
            try (CrashFs fs = CrashFs.mount(program, backing, work.resolve("pool"), mountPoint,
                    target.resolve("crashfs-" + loss + ".log"))) {
                RegistryProcess registry = LayerfoldProcess.start("256m", mountPoint.resolve("data"),
                        target.resolve("registry-logs"), List.of("-XX:TieredStopAtLevel=1"), Map.of());
                try {
                    assertEverythingAcknowledgedIsIntact(registry, loss);
                    if (loss == POWER_LOSSES) {
                        return;
                    }
                    pushUntilKilled(registry, loss, Duration.ofMillis(500 + random.nextInt(3_000)), random.nextLong());
                } finally {
                    registry.kill();
                }
                fs.powerLoss();
            }
            System.out.printf("power loss %d: %d blobs and manifests acknowledged so far, %d tags%n", loss + 1,
                    acknowledged.size(), tags.size());
        }
    }

    /** Pushes images from a few clients and kills the registry after {@code time}, mid-push. */
    private void pushUntilKilled(RegistryProcess registry, int round, Duration time, long seed) throws Exception {
        ExecutorService pushers = Executors.newVirtualThreadPerTaskExecutor();
        for (int p = 0; p < PUSHERS; p++) {
            Random random = new Random(seed + p);
            String prefix = "r" + round + "-p" + p + "-";
            pushers.submit(() -> {
                try (BlobClient blobs = new BlobClient(registry.baseUri());
                     HttpClient http = HttpClient.newHttpClient()) {
                    for (int image = 0; ; image++) {
                        pushImage(registry.baseUri(), blobs, http, prefix + image, random);
                    }
                } catch (Exception expectedOnceKilled) {
                    return null;
                }
            });
        }
        Thread.sleep(time); // the random moment of the power loss
        registry.kill();
        pushers.shutdown();
        assertThat(pushers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }

    private void pushImage(URI base, BlobClient blobs, HttpClient http, String tag, Random random) throws Exception {
        byte[] layer = new byte[1 + random.nextInt(3 * 1024 * 1024)];
        random.nextBytes(layer);
        byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"tag\":\"" + tag + "\"}").getBytes(StandardCharsets.UTF_8);
        String layerDigest = pushBlob(blobs, layer);
        String configDigest = pushBlob(blobs, config);
        byte[] manifest = ("{\"schemaVersion\":2,\"mediaType\":\"" + LargeManifest.MEDIA_TYPE + "\",\"config\":{\"mediaType\":"
                + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + configDigest + "\",\"size\":" + config.length
                + "},\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar\",\"digest\":\"" + layerDigest
                + "\",\"size\":" + layer.length + "}]}").getBytes(StandardCharsets.UTF_8);
        String manifestDigest = Sha256.of(manifest);
        attempted.put(manifestDigest, manifest);
        HttpResponse<Void> put = http.send(HttpRequest.newBuilder(base.resolve("/v2/" + REPOSITORY + "/manifests/" + tag))
                .header("Content-Type", LargeManifest.MEDIA_TYPE).PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (put.statusCode() == 201) {
            acknowledged.put(manifestDigest, manifest);
            tags.put(tag, manifestDigest);
        }
    }

    private String pushBlob(BlobClient blobs, byte[] content) throws Exception {
        String digest = Sha256.of(content);
        attempted.put(digest, content);
        blobs.pushMonolithic(REPOSITORY, digest, content.length, new ByteArrayInputStream(content)); // throws unless 201
        acknowledged.put(digest, content);
        return digest;
    }

    private void assertEverythingAcknowledgedIsIntact(RegistryProcess registry, int losses) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            for (Map.Entry<String, byte[]> pushed : attempted.entrySet()) {
                boolean manifest = tags.containsValue(pushed.getKey()) || new String(pushed.getValue(), StandardCharsets.UTF_8)
                        .startsWith("{\"schemaVersion\"");
                HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(registry.baseUri().resolve("/v2/" + REPOSITORY
                                + (manifest ? "/manifests/" : "/blobs/") + pushed.getKey()))
                        .header("Accept", LargeManifest.MEDIA_TYPE).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
                String what = (manifest ? "manifest " : "blob ") + pushed.getKey() + " after " + losses + " power losses";
                if (acknowledged.containsKey(pushed.getKey())) {
                    assertThat(got.statusCode()).as("acknowledged " + what + "; " + registry.logTail()).isEqualTo(200);
                }
                if (got.statusCode() == 200) {
                    assertThat(Sha256.of(got.body())).as("digest of the bytes served for " + what).isEqualTo(pushed.getKey());
                } else {
                    assertThat(got.statusCode()).as("status of " + what + " not acknowledged").isEqualTo(404);
                }
            }
            for (Map.Entry<String, String> tag : tags.entrySet()) {
                HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(registry.baseUri().resolve("/v2/" + REPOSITORY
                        + "/manifests/" + tag.getKey())).header("Accept", LargeManifest.MEDIA_TYPE).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertThat(got.statusCode()).as("acknowledged tag " + tag.getKey() + " after " + losses + " power losses")
                        .isEqualTo(200);
                assertThat(Sha256.of(got.body())).as("manifest tagged " + tag.getKey()).isEqualTo(tag.getValue());
            }
        }
    }
}
