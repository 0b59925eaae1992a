package dev.layerfold.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.testserver.S3Server;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class S3BucketTest {

    private S3Bucket bucket;

    @BeforeEach
    void connect() {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
    }

    @AfterEach
    void close() {
        bucket.close();
    }

    @Test
    void conditionalPutKeepsTheFirstWrite() throws Exception {
        assertThat(bucket.putIfAbsent("k", "first".getBytes(UTF_8), Map.of())).isTrue();

        assertThat(bucket.putIfAbsent("k", "second".getBytes(UTF_8), Map.of())).isFalse();

        assertThat(bucket.getSmall("k").orElseThrow().asUtf8String()).isEqualTo("first");
    }
}
