package dev.layerfold.server;

import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The same pipeline with blobs, packs and records in a real S3 server and the queue and index in a real Redis. */
class DeduplicationOnS3AndRedisTest extends DeduplicationTest {

    @DynamicPropertySource
    static void useS3AndRedis(DynamicPropertyRegistry properties) {
        S3Server s3 = S3Server.shared();
        properties.add("layerfold.storage.blob", () -> "s3");
        properties.add("layerfold.storage.metadata", () -> "redis");
        properties.add("layerfold.storage.s3.endpoint", () -> s3.endpoint().toString());
        properties.add("layerfold.storage.s3.region", s3::region);
        properties.add("layerfold.storage.s3.bucket", s3::newBucket);
        properties.add("layerfold.storage.s3.path-style", () -> "true");
        properties.add("layerfold.storage.s3.access-key", s3::accessKey);
        properties.add("layerfold.storage.s3.secret-key", s3::secretKey);
        properties.add("layerfold.storage.redis.url", () -> RedisServer.shared().url());
        properties.add("layerfold.storage.redis.namespace", RedisServer::newNamespace);
    }
}
