package dev.layerfold.e2e.distributed;

import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.util.Map;

/** The storage configurations the distributed tests run Layerfold with, as Spring properties. */
public final class Backends {

    private Backends() {
    }

    /**
     * Blobs in a new bucket of the shared S3 test server and metadata under a new key namespace of the
     * shared Redis: every node started with the same map shares its storage, and nothing else does.
     */
    public static Map<String, String> newS3AndRedis() {
        S3Server s3 = S3Server.shared();
        return S3AndRedisBackend.properties(s3.endpoint(), s3.region(), s3.newBucket(), s3.accessKey(), s3.secretKey(),
                RedisServer.shared().url(), RedisServer.newNamespace());
    }

    /** The default: files and SQLite under the node's data directory. */
    public static Map<String, String> embedded() {
        return Map.of();
    }
}
