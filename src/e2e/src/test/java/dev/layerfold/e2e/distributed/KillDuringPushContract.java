package dev.layerfold.e2e.distributed;

import static dev.layerfold.e2e.oci.LayoutAssertions.assertSameImage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node killed with {@code kill -9} in the middle of a push and started again on the same storage:
 * skopeo's retry and a chunked upload's resume succeed, and nothing the node serves afterwards is corrupt. Each backend's
 * test class extends this with the configuration it runs.
 *
 * <p>Clients reach the node through a {@link ThrottledProxy}: the push is slow enough to be killed at
 * a known point, and the restarted node (on a new port) keeps the address the client was given.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class KillDuringPushContract {

    /** Slow enough that skopeo's parallel layer uploads take seconds, leaving a wide window for the kill. */
    private static final long CHUNK_SIZE = 8L << 20;
    private static final long CHUNKS = 3;
    private static final long CHUNKED_UPLOAD_RATE = 32L << 20;
    private static final long SKOPEO_RATE = 8L << 20;
    private static final Duration KILL_POINT_TIMEOUT = Duration.ofSeconds(60);
    private static final Platform AMD64 = new Platform("linux", "amd64");

    private final Skopeo skopeo = Skopeo.onPath();
    private LayerfoldNode node;

    /** The storage properties the node runs with. */
    abstract Map<String, String> backend();

    @BeforeAll
    void startNode(@TempDir Path data) throws Exception {
        node = LayerfoldNode.start(data, backend());
    }

    @AfterAll
    void stopNode() throws InterruptedException {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void chunkedUploadCutByKillResumesAfterRestartAndIsNeverServedUnfinished() throws Exception {
        String repository = "e2e/kill/chunked";
        long seed = 60;
        long size = CHUNKS * CHUNK_SIZE;
        String digest = Sha256.of(new GeneratedContent(seed, size));

        try (ThrottledProxy proxy = ThrottledProxy.to(node.process(), CHUNKED_UPLOAD_RATE);
             UploadSession upload = UploadSession.open(proxy.baseUri(), repository)) {
            GeneratedContent content = new GeneratedContent(seed, size);
            long acknowledged = upload.append(proxy.baseUri(), 0, content, CHUNK_SIZE);
            acknowledged = upload.append(proxy.baseUri(), acknowledged, content, CHUNK_SIZE);

            long cutAfter = proxy.forwarded() + CHUNK_SIZE / 2;
            long sentBeforeCut = acknowledged;
            CompletableFuture<Long> cutChunk = CompletableFuture.supplyAsync(() -> uncheckedAppend(upload, proxy,
                    sentBeforeCut, content));
            killWhen(() -> proxy.forwarded() >= cutAfter, cutChunk);
            assertThatThrownBy(cutChunk::join).as("the PATCH the node was killed during")
                    .hasCauseInstanceOf(UncheckedIOException.class);

            node.restart();
            proxy.pointAt(node.process());
            try (BlobClient client = new BlobClient(node.process().baseUri())) {
                assertThat(client.size(repository, digest)).as("unfinished upload served as a blob").isEmpty();

                OptionalLong resumeAt = upload.size(proxy.baseUri());
                assertThat(resumeAt).as("upload after the restart").isPresent();
                // Whatever was acknowledged survives; of the cut chunk, at most what reached the node.
                assertThat(resumeAt.getAsLong()).isBetween(acknowledged, acknowledged + CHUNK_SIZE / 2 + (1 << 20));
                GeneratedContent rest = new GeneratedContent(seed, size);
                rest.skipNBytes(resumeAt.getAsLong());
                upload.append(proxy.baseUri(), resumeAt.getAsLong(), rest, size - resumeAt.getAsLong());
                assertThat(upload.complete(proxy.baseUri(), digest)).isEqualTo(digest);

                assertThat(client.pull(repository, digest)).isEqualTo(new PulledBlob(size, digest));
            }
        }
    }

    @Test
    void skopeoPushCutByKillSucceedsOnRetryAndOnlyIntactBlobsAreServed(@TempDir Path work) throws Exception {
        OciLayout pushed = OciLayout.create(work.resolve("pushed"));
        ImageWriter images = new ImageWriter(pushed);
        List<ImageWriter.Layer> layers = List.of(images.layer(70, 1, 300_000), images.layer(71, 2, 6_000_000),
                images.layer(72, 2, 6_000_000), images.layer(73, 2, 6_000_000));
        Descriptor manifest = images.image(AMD64, layers);
        pushed.tag("v1", manifest);
        long imageSize = layers.stream().mapToLong(layer -> layer.blob().size()).sum();
        String repository = "e2e/kill/skopeo";

        try (ThrottledProxy proxy = ThrottledProxy.to(node.process(), SKOPEO_RATE)) {
            String remote = "docker://" + proxy.hostAndPort() + "/" + repository + ":v1";
            CompletableFuture<Void> push = CompletableFuture.runAsync(() -> uncheckedCopy(pushed, remote));
            killWhen(() -> proxy.forwarded() >= imageSize / 3, push);
            assertThatThrownBy(push::join).as("skopeo push the node was killed during")
                    .hasCauseInstanceOf(AssertionError.class); // skopeo exited non-zero

            node.restart();
            proxy.pointAt(node.process());
            try (BlobClient client = new BlobClient(node.process().baseUri())) {
                for (ImageWriter.Layer layer : layers) {
                    String digest = layer.blob().digest();
                    if (client.size(repository, digest).isPresent()) {
                        assertThat(client.pull(repository, digest)).as("layer served after the restart")
                                .isEqualTo(new PulledBlob(layer.blob().size(), digest));
                    }
                }
            }

            skopeo.copy(pushed.skopeoReference("v1"), remote, "--dest-tls-verify=false", "--preserve-digests");
            OciLayout pulled = OciLayout.create(work.resolve("pulled"));
            skopeo.copy(remote, pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests");
            assertSameImage(pushed, pulled, "v1");
        }
    }

    /** Kills the node once {@code reached} holds, failing if {@code push} ended first (no kill mid-push then). */
    private void killWhen(BooleanSupplier reached, CompletableFuture<?> push) throws InterruptedException {
        long deadline = System.nanoTime() + KILL_POINT_TIMEOUT.toNanos();
        while (!reached.getAsBoolean()) {
            if (push.isDone()) {
                throw new AssertionError("the push ended before the kill point: " + push.handle((ok, e) -> e).join());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the push did not reach the kill point within " + KILL_POINT_TIMEOUT);
            }
            Thread.sleep(5);
        }
        node.kill();
    }

private static long uncheckedAppend(UploadSession upload, ThrottledProxy proxy, long offset, InputStream content) {
        try {
            return upload.append(proxy.baseUri(), offset, content, CHUNK_SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void uncheckedCopy(OciLayout image, String remote) {
        try {
            skopeo.copy(image.skopeoReference("v1"), remote, "--dest-tls-verify=false", "--preserve-digests");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
