package dev.layerfold.storage.redis;

import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupQueueContract;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** The queue contract on a real Redis; another process's view is a second store on the same Redis and bucket. */
class RedisDedupQueueTest extends DedupQueueContract {

    private final List<RedisMetadataStore> opened = new ArrayList<>();
    private S3Bucket bucket;
    private String namespace;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected DedupQueue newQueue() throws Exception {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
        namespace = RedisServer.newNamespace();
        return sameQueue();
    }

    @Override
    protected DedupQueue sameQueue() throws Exception {
        RedisMetadataStore store = new RedisMetadataStore(RedisConnection.open(redisUrl(), cluster()), bucket, namespace);
        opened.add(store);
        return store.dedupQueue();
    }

    @AfterEach
    void close() {
        opened.forEach(RedisMetadataStore::close);
        bucket.close();
    }
}
