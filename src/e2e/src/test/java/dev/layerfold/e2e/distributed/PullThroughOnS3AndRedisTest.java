package dev.layerfold.e2e.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Layerfold nodes on one S3 bucket and one Redis, caching the same upstream (the CNCF registry,
 * behind a proxy that counts what it sends): a blob both are asked for while the first is still
 * fetching it comes from the upstream once, under the fetching node's Redis lease, and both serve it whole.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PullThroughOnS3AndRedisTest {

    private static final int BLOB_SIZE = 48 << 20;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private RegistryProcess upstream;
    private ThrottledProxy counting;
    private LayerfoldNodes cluster;

    @BeforeAll
    void start(@TempDir Path data) throws Exception {
        upstream = ReferenceRegistryProcess.start(data.resolve("upstream"), Path.of("target", "registry-logs"));
        counting = ThrottledProxy.to(upstream, 1L << 40);
        Map<String, String> properties = new HashMap<>(Backends.newS3AndRedis());
        properties.put("layerfold.proxy.upstreams[0].prefix", "up");
        properties.put("layerfold.proxy.upstreams[0].url", counting.baseUri().toString());
        cluster = LayerfoldNodes.start(List.of(data.resolve("first"), data.resolve("second")), properties);
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (counting != null) {
            counting.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void aBlobPulledFromBothNodesAtOnceIsFetchedFromTheUpstreamOnce() throws Exception {
        byte[] noise = new byte[BLOB_SIZE];
        new Random(11).nextBytes(noise);
        String digest = sha256(noise);
        HttpResponse<String> start = HTTP.send(HttpRequest.newBuilder(upstream.baseUri().resolve("/v2/e2e/shared/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        String location = start.headers().firstValue("Location").orElseThrow();
        URI put = upstream.baseUri().resolve(location + (location.contains("?") ? "&" : "?") + "digest=" + digest);
        HttpResponse<String> stored = HTTP.send(HttpRequest.newBuilder(put).PUT(HttpRequest.BodyPublishers.ofByteArray(noise))
                .header("Content-Type", "application/octet-stream").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
        noise = null;
        long sentBefore = counting.returned();

        String path = "/v2/up/e2e/shared/blobs/" + digest;
        HttpResponse<InputStream> first = HTTP.send(HttpRequest.newBuilder(cluster.get(0).process().baseUri().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(first.statusCode()).isEqualTo(200);
        try (InputStream body = first.body()) {
            // The first client reads slowly: the first node's fetch, which feeds it, is still under way.
            MessageDigest hash = MessageDigest.getInstance("SHA-256");
            byte[] start1 = body.readNBytes(1 << 20);
            hash.update(start1);
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> pull(cluster.get(1).process().baseUri().resolve(path)));
            Thread.sleep(2_000);
            assertThat(second).as("the second node waits for the first one's fetch").isNotDone();
            byte[] buffer = new byte[1 << 16];
            long count = start1.length;
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                hash.update(buffer, 0, n);
                count += n;
            }
            assertThat(count).isEqualTo(BLOB_SIZE);
            assertThat("sha256:" + HexFormat.of().formatHex(hash.digest())).isEqualTo(digest);
            assertThat(second.get(2, TimeUnit.MINUTES)).isEqualTo(digest);
        }
        long sentByUpstream = counting.returned() - sentBefore;
        assertThat(sentByUpstream).as("bytes the upstream sent").isBetween((long) BLOB_SIZE, BLOB_SIZE + (1L << 20));
    }

    private static String pull(URI blob) {
        try {
            HttpResponse<InputStream> response = HTTP.send(HttpRequest.newBuilder(blob).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            MessageDigest hash = MessageDigest.getInstance("SHA-256");
            try (InputStream body = response.body()) {
                byte[] buffer = new byte[1 << 16];
                for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                    hash.update(buffer, 0, n);
                }
            }
            return "sha256:" + HexFormat.of().formatHex(hash.digest());
        } catch (IOException | InterruptedException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
