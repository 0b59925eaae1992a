package dev.layerfold.registry.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.RegistryHttpTest;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.S3Server;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/** Blob pulls redirected to presigned URLs of a real S3 server (S3Proxy, or MinIO where Docker runs). */
@Import(PresignedRedirectTest.PresigningStore.class)
class PresignedRedirectTest extends RegistryHttpTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class PresigningStore {
        @Bean(destroyMethod = "")
        @Primary
        BlobStore presigningBlobStore() {
            S3Server server = S3Server.shared();
            S3Settings settings = new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                    server.accessKey(), server.secretKey(), true, S3Settings.DEFAULT_PART_SIZE);
            return new S3BlobStore(S3Bucket.connect(settings), settings);
        }
    }

    @Test
    void redirectToAPresignedUrlIsNotCachedButTheBytesMayBe() throws Exception {
        String repository = uniqueRepository("presigned");
        Digest digest = pushBlob(repository, "bytes behind a presigned URL");

        HttpResponse<byte[]> redirect = request("GET", "/v2/" + repository + "/blobs/" + digest).send();
        HttpResponse<byte[]> head = request("HEAD", "/v2/" + repository + "/blobs/" + digest).send();

        assertThat(redirect.statusCode()).isEqualTo(307);
        assertThat(redirect.headers().firstValue("Location")).hasValueSatisfying(url -> assertThat(url).contains("X-Amz-"));
        assertThat(redirect.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Cache-Control")).hasValue("max-age=31536000");
    }
}
