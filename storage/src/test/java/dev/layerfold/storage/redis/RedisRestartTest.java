package dev.layerfold.storage.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Redis killed and started again, through one store that stays up and reconnects: what Redis kept
 * of its index depends on its persistence, and the store must answer as the bucket says either way.
 */
class RedisRestartTest {

    private static final RepositoryName REPO = RepositoryName.of("library/alpine");
    private static final String IMAGE_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final Digest MANIFEST_A = digest("manifest a");
    private static final Digest MANIFEST_B = digest("manifest b");
    private static final Digest BLOB_A = digest("blob a");
    private static final Digest BLOB_B = digest("blob b");

    private final String namespace = RedisServer.newNamespace();
    private S3Bucket bucket;

    /** A Redis this test may kill and restart; the cluster variant overrides it. */
    protected RedisServer.Restartable startRedis(String... options) {
        return RedisServer.startRestartable(options);
    }

    protected boolean cluster() {
        return false;
    }

    @BeforeEach
    void openBucket() {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
    }

    @AfterEach
    void closeBucket() {
        bucket.close();
    }

    @Test
    void redisBackFromAnOldSnapshotCatchesUpWithWritesAndDeletesMadeAfterIt() throws Exception {
        try (RedisServer.Restartable redis = startRedis();
             RedisMetadataStore store = new RedisMetadataStore(RedisConnection.open(redis.url(), cluster()), bucket, namespace)) {
            store.linkManifest(REPO, new ManifestRecord(MANIFEST_A, IMAGE_MANIFEST, 10));
            store.putTag(REPO, "a", MANIFEST_A);
            store.linkBlob(REPO, BLOB_A);
            save(redis);
            store.linkManifest(REPO, new ManifestRecord(MANIFEST_B, IMAGE_MANIFEST, 20));
            store.putTag(REPO, "b", MANIFEST_B);
            store.linkBlob(REPO, BLOB_B);
            store.deleteTag(REPO, "a");
            store.unlinkBlob(REPO, BLOB_A);
            store.unlinkManifest(REPO, MANIFEST_A);

            redis.kill();
            redis.start(); // loads the snapshot: everything about A, nothing about B

            // A lookup that misses waits for the reconcile; one that hits an entry deleted in the lost
            // window may see it until the reconcile (started by the reconnection, or here) has passed.
            assertThat(store.tag(REPO, "b")).contains(MANIFEST_B);
            store.awaitIndexComplete();
            assertThat(store.tag(REPO, "a")).isEmpty();
            assertThat(store.tags(REPO, Optional.empty(), 10)).containsExactly("b");
            assertThat(store.hasBlob(REPO, BLOB_B)).isTrue();
            assertThat(store.hasBlob(REPO, BLOB_A)).isFalse();
            assertThat(store.manifest(REPO, MANIFEST_B)).contains(new ManifestRecord(MANIFEST_B, IMAGE_MANIFEST, 20));
            assertThat(store.manifest(REPO, MANIFEST_A)).isEmpty();
            assertThat(store.repositories(Optional.empty(), 10)).containsExactly(REPO);
        }
    }

    @Test
    void entryDeletedAfterTheSnapshotGoesWithoutALookupHavingToMiss() throws Exception {
        try (RedisServer.Restartable redis = startRedis();
             RedisMetadataStore store = new RedisMetadataStore(RedisConnection.open(redis.url(), cluster()), bucket, namespace)) {
            store.putTag(REPO, "a", MANIFEST_A);
            save(redis);
            store.deleteTag(REPO, "a");

            redis.kill();
            redis.start();

            // Only hits: the reconcile starts when the connection comes back (or at the periodic check).
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (store.tag(REPO, "a").isPresent() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(store.tag(REPO, "a")).isEmpty();
        }
    }

    @Test
    void repositoryDeletedAfterTheSnapshotLeavesTheCatalog() throws Exception {
        RepositoryName gone = RepositoryName.of("library/gone");
        try (RedisServer.Restartable redis = startRedis();
             RedisMetadataStore store = new RedisMetadataStore(RedisConnection.open(redis.url(), cluster()), bucket, namespace)) {
            store.linkManifest(gone, new ManifestRecord(MANIFEST_A, IMAGE_MANIFEST, 10));
            store.addReferrer(gone, MANIFEST_A, new Descriptor(IMAGE_MANIFEST, MANIFEST_B, 20, null, Map.of()));
            save(redis);
            store.removeReferrer(gone, MANIFEST_A, MANIFEST_B);
            store.unlinkManifest(gone, MANIFEST_A);

            redis.kill();
            redis.start();

            assertThat(store.tag(gone, "latest")).isEmpty(); // a miss: waits for the reconcile
            assertThat(store.repositories(Optional.empty(), 10)).isEmpty();
            assertThat(store.referrers(gone, MANIFEST_A)).isEmpty();
            assertThat(store.manifest(gone, MANIFEST_A)).isEmpty();
        }
    }

    @Test
    void redisThatPersistedEverythingKeepsEverythingThroughTheReconcile() throws Exception {
        try (RedisServer.Restartable redis = startRedis("--appendonly", "yes", "--appendfsync", "always");
             RedisMetadataStore store = new RedisMetadataStore(RedisConnection.open(redis.url(), cluster()), bucket, namespace)) {
            Descriptor signature = new Descriptor(IMAGE_MANIFEST, MANIFEST_B, 20, "application/example", Map.of());
            store.linkManifest(REPO, new ManifestRecord(MANIFEST_A, IMAGE_MANIFEST, 10));
            store.putTag(REPO, "a", MANIFEST_A);
            store.putTag(REPO, "gone", MANIFEST_A);
            store.linkBlob(REPO, BLOB_A);
            store.linkBlob(REPO, BLOB_B);
            store.addReferrer(REPO, MANIFEST_A, signature);
            store.deleteTag(REPO, "gone");
            store.unlinkBlob(REPO, BLOB_B);
            String markerBefore = marker(redis);

            redis.kill();
            redis.start();

            assertThat(store.tag(REPO, "never-pushed")).isEmpty(); // a miss: waits for the reconcile
            assertThat(marker(redis)).isNotEqualTo(markerBefore);
            assertThat(store.tags(REPO, Optional.empty(), 10)).containsExactly("a");
            assertThat(store.tag(REPO, "a")).contains(MANIFEST_A);
            assertThat(store.hasBlob(REPO, BLOB_A)).isTrue();
            assertThat(store.hasBlob(REPO, BLOB_B)).isFalse();
            assertThat(store.manifest(REPO, MANIFEST_A)).contains(new ManifestRecord(MANIFEST_A, IMAGE_MANIFEST, 10));
            assertThat(store.referrers(REPO, MANIFEST_A)).containsExactly(signature);
            assertThat(store.repositories(Optional.empty(), 10)).containsExactly(REPO);
        }
    }

    private String marker(RedisServer.Restartable redis) {
        try (RedisConnection connection = RedisConnection.open(redis.url(), cluster())) {
            return connection.commands().get(new IndexKeys(namespace).indexComplete());
        }
    }

    private void save(RedisServer.Restartable redis) {
        try (RedisConnection connection = RedisConnection.open(redis.url(), cluster())) {
            assertThat(connection.commands().save()).isEqualTo("OK");
        }
    }

    private static Digest digest(String content) {
        return Digest.sha256(content.getBytes(UTF_8));
    }
}
