package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.pipeline.IntactCopyBudget;
import dev.layerfold.dedup.pipeline.YieldToClients;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Mode {@code budgeted} as the server wires it, with the predictor off: pulls over HTTP decide which layers keep a copy. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BudgetedModeTest {

    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry properties) {
        properties.add("layerfold.storage.path", data::toString);
        properties.add("layerfold.dedup.mode", () -> "budgeted");
        properties.add("layerfold.dedup.intact-budget", () -> "32MB");
        properties.add("layerfold.predictor.mode", () -> "off");
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    BlobStore blobs;

    @Autowired
    DedupIndex index;

    @Autowired
    IntactCopyBudget budget;

    @Autowired
    YieldToClients yielding;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aDeduplicatedLayerPulledOverHttpIsRebuiltOnceAndThenKeptIntactWithinTheBudget() throws Exception {
        byte[] layer = layer(new Random(5));
        Digest digest = Digest.sha256(layer);
        push("budgeted/app", layer);
        settle();
        assertThat(index.layer(digest)).get().isInstanceOf(LayerState.Deduplicated.class);
        assertThat(blobs.size(digest)).as("thinned: no pull yet").isEmpty();

        HttpResponse<byte[]> first = http.send(HttpRequest.newBuilder(uri("/v2/budgeted/app/blobs/" + digest)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEqualTo(layer);

        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!(budget.holds(digest) && blobs.size(digest).isPresent())) {
            assertThat(System.nanoTime() - deadline).as("the rebuilt layer kept as a copy the budget holds").isNegative();
            Thread.sleep(50);
        }
        assertThat(budget.heldBytes()).isGreaterThanOrEqualTo(layer.length);
        HttpResponse<byte[]> second = http.send(HttpRequest.newBuilder(uri("/v2/budgeted/app/blobs/" + digest)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(second.body()).as("served from the copy").isEqualTo(layer);
        assertThat(yielding.pausedNow()).isZero();
    }

    private static byte[] layer(Random random) throws IOException {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(blob))) {
            for (int i = 0; i < 8; i++) {
                byte[] content = new byte[20_000 + random.nextInt(20_000)];
                for (int j = 0; j < content.length; j++) {
                    content[j] = (byte) ('a' + random.nextInt(16));
                }
                TarArchiveEntry entry = new TarArchiveEntry("usr/file-" + i);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return blob.toByteArray();
    }

    private void push(String repository, byte[] layer) throws Exception {
        byte[] config = "{\"architecture\":\"amd64\",\"os\":\"linux\"}".getBytes(StandardCharsets.UTF_8);
        for (byte[] blob : new byte[][] {layer, config}) {
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/blobs/uploads/?digest=" + Digest.sha256(blob)))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(blob)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        }
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":{\"mediaType\":"
                + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\"" + Digest.sha256(config) + "\",\"size\":" + config.length
                + "},\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"" + Digest.sha256(layer)
                + "\",\"size\":" + layer.length + "}]}";
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/v2/" + repository + "/manifests/latest"))
                .header("Content-Type", OCI_MANIFEST).PUT(HttpRequest.BodyPublishers.ofString(manifest)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
    }

    private void settle() throws Exception {
        HttpResponse<String> settled = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + "/actuator/dedup"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":120}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(settled.statusCode()).as(settled.body()).isEqualTo(200);
        assertThat(settled.body()).contains("\"settled\":true");
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
