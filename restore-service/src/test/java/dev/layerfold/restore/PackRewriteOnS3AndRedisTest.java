package dev.layerfold.restore;

import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisMetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.IOException;
import java.nio.file.Path;

/** Pack rewriting on a real S3 server and Redis, as several registry processes share them. */
class PackRewriteOnS3AndRedisTest extends PackRewriteTest {

    private S3Bucket bucket;
    private RedisMetadataStore store;

    @Override
    protected void openStores(Path dir) throws IOException {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
        blobs = new S3BlobStore(bucket, S3Settings.DEFAULT_PART_SIZE, false);
        store = new RedisMetadataStore(RedisConnection.open(RedisServer.shared().url(), false), bucket,
                RedisServer.newNamespace(), new StoredFiles(blobs));
        index = store.dedupIndex();
        gcIndex = store.gcIndex();
        metadata = store;
    }

    @Override
    protected void closeStores() {
        store.close();
        bucket.close();
    }
}
