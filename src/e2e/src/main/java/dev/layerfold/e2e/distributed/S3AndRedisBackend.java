package dev.layerfold.e2e.distributed;

import java.net.URI;
import java.util.Map;

/**
 * Layerfold's Spring properties for blobs in an S3-compatible bucket and metadata in Redis, for
 * {@link dev.layerfold.e2e.process.LayerfoldProcess}: every node started with the same properties
 * shares the bucket, the Redis key namespace, and so everything pushed to any of them.
 */
public final class S3AndRedisBackend {

    private S3AndRedisBackend() {
    }

    /** Path-style bucket addressing: local S3 servers (MinIO, S3Proxy) have no per-bucket host names. */
    public static Map<String, String> properties(URI endpoint, String region, String bucket, String accessKey,
                                                 String secretKey, String redisUrl, String redisNamespace) {
        return Map.of(
                "layerfold.storage.blob", "s3",
                "layerfold.storage.metadata", "redis",
                "layerfold.storage.s3.endpoint", endpoint.toString(),
                "layerfold.storage.s3.region", region,
                "layerfold.storage.s3.bucket", bucket,
                "layerfold.storage.s3.path-style", "true",
                "layerfold.storage.s3.access-key", accessKey,
                "layerfold.storage.s3.secret-key", secretKey,
                "layerfold.storage.redis.url", redisUrl,
                "layerfold.storage.redis.namespace", redisNamespace);
    }
}
