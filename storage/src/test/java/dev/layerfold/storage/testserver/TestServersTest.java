package dev.layerfold.storage.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

class TestServersTest {

    @Test
    void s3ServerStoresAndReturnsAnObject() {
        S3Server server = S3Server.shared();
        String bucket = server.newBucket();
        try (S3Client client = server.newClient()) {
            client.putObject(request -> request.bucket(bucket).key("a/b"), RequestBody.fromString("hello"));
            String read = client.getObjectAsBytes(request -> request.bucket(bucket).key("a/b")).asString(StandardCharsets.UTF_8);
            assertThat(read).isEqualTo("hello");
        }
    }

    @Test
    void redisServerAnswersCommands() {
        RedisClient client = RedisClient.create(RedisServer.shared().url());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            String key = RedisServer.newNamespace() + ":k";
            connection.sync().set(key, "v");
            assertThat(connection.sync().get(key)).isEqualTo("v");
        } finally {
            client.shutdown();
        }
    }
}
