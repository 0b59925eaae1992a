package dev.layerfold.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.process.RegistryProcess;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A blob far larger than the registry's heap ({@link LayerfoldExtension#MAX_HEAP}) and past every 32-bit
 * size and offset goes in and comes out intact: the registry streams, it never holds a blob. The
 * bytes are generated as they are sent and digested as they arrive; nothing is stored client-side.
 */
@ExtendWith(LayerfoldExtension.class)
class LargeBlobTest {

    private static final long SIZE = 5L << 30;
    private static final long CHUNK_SIZE = 512L << 20;
    private static final long SEED = 5;

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // against a hang only; speed is the benchmark's business
    void fiveGibibyteBlobPushedChunkedAndMonolithicallyStreamsThroughASmallHeap(RegistryProcess layerfold)
            throws Exception {
        try (BlobClient client = new BlobClient(layerfold.baseUri())) {
            long start = System.nanoTime();
            String digest = client.pushChunked("e2e/large/chunked", new GeneratedContent(SEED, SIZE), SIZE, CHUNK_SIZE);
            start = logPhase("chunked push", start);
            assertThat(client.pull("e2e/large/chunked", digest)).isEqualTo(new PulledBlob(SIZE, digest));
            start = logPhase("pull", start);

            // Same bytes again in one PUT: the registry must digest all of them before it accepts the upload.
            client.pushMonolithic("e2e/large/monolithic", digest, SIZE, new GeneratedContent(SEED, SIZE));
            logPhase("monolithic push", start);
            assertThat(client.size("e2e/large/monolithic", digest)).isEqualTo(OptionalLong.of(SIZE));
        }
    }

    private static long logPhase(String phase, long startNanos) {
        long now = System.nanoTime();
        System.out.printf("%s of %d bytes took %.1f s%n", phase, SIZE, (now - startNanos) / 1e9);
        return now;
    }
}
