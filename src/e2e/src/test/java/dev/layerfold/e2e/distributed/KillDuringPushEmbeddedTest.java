package dev.layerfold.e2e.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Kill -9 mid-push on the embedded backends (files and SQLite in the node's data directory), and a
 * chunked upload cut by the kill that the client resumes from the size the restarted node reports.
 */
class KillDuringPushEmbeddedTest extends KillDuringPushContract {

    private static final long CHUNK_SIZE = 8L << 20;
    private static final long CHUNKS = 3;
    private static final long CHUNKED_UPLOAD_RATE = 32L << 20;

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }

    @Test
    void chunkedUploadCutByKillResumesAfterRestartAndIsNeverServedUnfinished() throws Exception {
        String repository = "e2e/kill/chunked";
        long seed = 60;
        long size = CHUNKS * CHUNK_SIZE;
        String digest = Sha256.of(new GeneratedContent(seed, size));

        try (ThrottledProxy proxy = ThrottledProxy.to(node().process(), CHUNKED_UPLOAD_RATE);
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

            node().restart();
            proxy.pointAt(node().process());
            try (BlobClient client = new BlobClient(node().process().baseUri())) {
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

    private static long uncheckedAppend(UploadSession upload, ThrottledProxy proxy, long offset, InputStream content) {
        try {
            return upload.append(proxy.baseUri(), offset, content, CHUNK_SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
