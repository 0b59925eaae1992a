package dev.layerfold.storage.redis;

import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A bucket and a key namespace of their own on the shared test servers, and the stores opened on
 * them (as several processes would), closed together.
 */
final class SharedServerStores implements AutoCloseable {

    private final String redisUrl;
    private final boolean cluster;
    private final S3Bucket bucket = newBucket();
    private final String namespace = RedisServer.newNamespace();
    private final List<RedisMetadataStore> opened = new ArrayList<>();

    SharedServerStores(String redisUrl, boolean cluster) {
        this.redisUrl = redisUrl;
        this.cluster = cluster;
    }

    /** A new, empty bucket on the shared S3 server; the caller closes it. */
    static S3Bucket newBucket() {
        S3Server server = S3Server.shared();
        return S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
    }

    S3Bucket bucket() {
        return bucket;
    }

    /** Opens another store on the bucket and namespace, over a connection of its own. */
    RedisMetadataStore open() throws IOException {
        return remember(new RedisMetadataStore(RedisConnection.open(redisUrl, cluster), bucket, namespace));
    }

    /** {@link #open()}, reading layer records through {@code layerRecordFiles} to rebuild the dedup index. */
    RedisMetadataStore open(LayerRecordFiles layerRecordFiles) throws IOException {
        return remember(new RedisMetadataStore(RedisConnection.open(redisUrl, cluster), bucket, namespace, layerRecordFiles));
    }

    private RedisMetadataStore remember(RedisMetadataStore store) {
        opened.add(store);
        return store;
    }

    /** As after a Redis restart without persistence: every key of the namespace is gone. */
    void forgetEverythingInRedis() {
        forgetEverythingInRedis(redisUrl, cluster, namespace);
    }

    /** Deletes every key of {@code namespace}, as a Redis restarted without persistence has none. */
    static void forgetEverythingInRedis(String redisUrl, boolean cluster, String namespace) {
        try (RedisConnection connection = RedisConnection.open(redisUrl, cluster)) {
            RedisClusterCommands<String, String> redis = connection.commands();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(namespace + ":*").limit(500));
                page.getKeys().forEach(redis::del);
                cursor = page;
            } while (!cursor.isFinished());
        }
    }

    @Override
    public void close() {
        opened.forEach(RedisMetadataStore::close);
        bucket.close();
    }
}
