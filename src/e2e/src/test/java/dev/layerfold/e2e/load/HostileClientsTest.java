package dev.layerfold.e2e.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged registry at a heap of 256 MiB under the slow clients and bursts of issue 13: it must keep
 * answering everyone else, and never answer a 500. Each test runs its own registry process.
 */
class HostileClientsTest {

    private static final String MAX_HEAP = "256m";
    /** The largest manifest the registry accepts by default (4 MiB), less a little. */
    private static final int LARGE_MANIFEST = 4 * 1024 * 1024 - 64;
    /** How long a request of a client that is not hostile may take while the hostile ones hold. */
    private static final Duration PATIENCE = Duration.ofSeconds(15);

    private RegistryProcess registry;
    private BlobClient blobs;
    private HttpClient http;

    @BeforeEach
    void startRegistry(@TempDir Path work) throws Exception {
        registry = LayerfoldProcess.start(MAX_HEAP, work.resolve("data"), Path.of("target", "registry-logs"));
        blobs = new BlobClient(registry.baseUri());
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterEach
    void stopRegistry() throws Exception {
        http.close();
        blobs.close();
        registry.close();
    }

    @Test
    void slowReadersOfALargeManifestDoNotStopTheRegistry() throws Exception {
        byte[] manifest = LargeManifest.of(blobs, "hostile/readers", LARGE_MANIFEST, 'r');
        assertThat(putManifest("hostile/readers", "big", manifest).statusCode()).isEqualTo(201);

        try (SlowReaders readers = SlowReaders.open(registry.baseUri(), "/v2/hostile/readers/manifests/big", 200)) {
            Map<Integer, Integer> statuses = readers.awaitStatuses(Duration.ofSeconds(60));

            assertThat(get("/v2/").statusCode()).as(registry.logTail()).isEqualTo(200);
            assertThat(get("/v2/hostile/readers/manifests/big").body()).isEqualTo(manifest);
            assertThat(statuses).as("status lines the slow readers got").isEqualTo(Map.of(200, 200));
        }
        assertThat(get("/v2/").statusCode()).isEqualTo(200);
    }

    @Test
    void burstOfLargeManifestPushesIsNeverAnsweredWithAServerError() throws Exception {
        byte[] manifest = LargeManifest.of(blobs, "hostile/burst", LARGE_MANIFEST, 'b');
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> pushes = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                String tag = "t" + i;
                pushes.add(clients.submit(() -> pushHonouringRetryAfter("hostile/burst", tag, manifest, statuses)));
            }
            for (Future<Integer> push : pushes) {
                assertThat(push.get()).as("final status; all statuses %s", statuses).isEqualTo(201);
            }
        }
        System.out.println("statuses of 100 concurrent 4 MiB manifest pushes, retries included: " + statuses);
        assertThat(statuses.keySet()).as(registry.logTail()).allMatch(status -> status == 201 || status == 429);
    }

    @Test
    void slowRequestBodiesDoNotStopTheRegistryForOthers() throws Exception {
        int writers = 300; // more than Tomcat's 200 request threads
        List<String> uploads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            HttpResponse<Void> started = http.send(HttpRequest.newBuilder(uri("/v2/hostile/writers/blobs/uploads/"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            uploads.add(started.headers().firstValue("Location").orElseThrow());
        }

        try (SlowWriters slow = SlowWriters.open(registry.baseUri(), "PATCH", uploads::get, writers, Duration.ofSeconds(2))) {
            assertThat(get("/v2/").statusCode()).as(registry.logTail()).isEqualTo(200);
            byte[] layer = LargeManifest.of(blobs, "hostile/others", 1024, 'o'); // pushes blobs meanwhile
            assertThat(putManifest("hostile/others", "latest", layer).statusCode()).isEqualTo(201);
            assertThat(slow.dropped()).as("slow writers the registry dropped").isZero();
        }
    }

    /**
     * Issue 13's load in its own setting: 2,000 slow readers and 2,000 slow writers held at once by a
     * registry of 256 MiB. With Tomcat's own buffer sizes each request in progress held 70 KB of heap, and
     * the registry ran out of memory at about 2,700 of them.
     */
    @Test
    void fourThousandSlowClientsAtOnceFitInTheHeap() throws Exception {
        FileDescriptors.require(4_200, "this test");
        int each = 2_000;
        long size = 16 * 1024 * 1024; // more than loopback's socket buffers take, so each reader's response stays open
        String blob = Sha256.of(new GeneratedContent(13, size));
        blobs.pushMonolithic("hostile/many", blob, size, new GeneratedContent(13, size));
        // Monolithic pushes whose bodies never arrive: no upload needs opening first, one SQLite commit each.
        String neverSent = "/v2/hostile/many/blobs/uploads/?digest=sha256:" + "0".repeat(64);
        try (SlowReaders readers = SlowReaders.open(registry.baseUri(), "/v2/hostile/many/blobs/" + blob, each);
             SlowWriters writers = SlowWriters.open(registry.baseUri(), "POST", i -> neverSent, each, Duration.ofSeconds(1))) {
            Map<Integer, Integer> statuses = readers.awaitStatuses(Duration.ofSeconds(60));

            assertThat(registry.isAlive()).as(registry.logTail()).isTrue();
            assertThat(statuses).as("status lines the slow readers got").isEqualTo(Map.of(200, each));
            assertThat(blobs.pull("hostile/many", blob).digest()).isEqualTo(blob);
            assertThat(writers.dropped()).as("slow writers the registry dropped").isZero();
        }
        assertThat(get("/v2/").statusCode()).as(registry.logTail()).isEqualTo(200);
    }

    private int pushHonouringRetryAfter(String repository, String tag, byte[] manifest, Map<Integer, Integer> statuses)
            throws Exception {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<byte[]> response = putManifest(repository, tag, manifest);
            statuses.merge(response.statusCode(), 1, Integer::sum);
            if (response.statusCode() != 429 || attempt == 20) {
                return response.statusCode();
            }
            long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
            Thread.sleep(Duration.ofSeconds(retryAfter)); // what the registry asked for, as clients do
        }
    }

    private HttpResponse<byte[]> putManifest(String repository, String tag, byte[] manifest) throws Exception {
        return http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/" + tag))
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", LargeManifest.MEDIA_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(PATIENCE).header("Accept", "*/*").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private URI uri(String path) {
        return registry.baseUri().resolve(path);
    }
}
