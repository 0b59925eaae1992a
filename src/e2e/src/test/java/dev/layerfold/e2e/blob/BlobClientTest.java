package dev.layerfold.e2e.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.e2e.blob.BlobClient.PulledBlob;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client the large-blob test and the benchmark use, checked against the reference registry: when
 * Layerfold fails with this client, the fault is Layerfold's.
 */
class BlobClientTest {

    private static final long SIZE = 3 * (1 << 20) + 17;

    private static RegistryProcess reference;
    private static BlobClient client;

    @BeforeAll
    static void startReferenceRegistry(@TempDir Path work) throws Exception {
        reference = ReferenceRegistryProcess.start(work.resolve("data"), Path.of("target", "registry-logs"));
        client = new BlobClient(reference.baseUri());
    }

    @AfterAll
    static void stopReferenceRegistry() throws Exception {
        client.close();
        reference.close();
    }

    @Test
    void chunkedPushReturnsTheDigestTheRegistryServesTheBlobUnder() throws IOException {
        String digest = client.pushChunked("client/chunked", new GeneratedContent(1, SIZE), SIZE, 1 << 20);

        assertThat(digest).isEqualTo(Sha256.of(new GeneratedContent(1, SIZE)));
        assertThat(client.pull("client/chunked", digest)).isEqualTo(new PulledBlob(SIZE, digest));
    }

    @Test
    void monolithicPushOfKnownDigestIsServedBack() throws IOException {
        String digest = Sha256.of(new GeneratedContent(2, SIZE));

        client.pushMonolithic("client/monolithic", digest, SIZE, new GeneratedContent(2, SIZE));

        assertThat(client.size("client/monolithic", digest)).isEqualTo(OptionalLong.of(SIZE));
        assertThat(client.pullDiscarding("client/monolithic", digest)).isEqualTo(SIZE);
    }

    @Test
    void pushWithWrongDigestFailsNamingTheRequestAndTheRegistrysAnswer() throws IOException {
        String wrong = Sha256.of(new byte[] {1});

        assertThatThrownBy(() -> client.pushMonolithic("client/wrong", wrong, SIZE, new GeneratedContent(3, SIZE)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("PUT " + reference.baseUri())
                .hasMessageContaining("answered 400");
        assertThat(client.size("client/wrong", wrong)).isEmpty();
    }
}
