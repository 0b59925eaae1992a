package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.MetadataStoreContract;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The metadata contract on real Redis and S3 servers, plus what the bucket-backed index adds. */
class RedisMetadataStoreTest extends MetadataStoreContract {

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
    protected MetadataStore newStore() throws Exception {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE));
        namespace = RedisServer.newNamespace();
        return reopen();
    }

    @Override
    protected MetadataStore reopen() throws Exception {
        return new RedisMetadataStore(RedisConnection.open(redisUrl(), cluster()), bucket, namespace);
    }

    @AfterEach
    void closeBucket() {
        bucket.close();
    }

    @Test
    void everyAcknowledgedWriteIsARecordInTheBucket() throws Exception {
        Digest manifest = digest("manifest");
        store.linkBlob(REPO, digest("layer"));
        store.linkManifest(REPO, new ManifestRecord(manifest, IMAGE_MANIFEST, 10));
        store.putTag(REPO, "latest", manifest);
        store.addReferrer(REPO, manifest, new Descriptor(IMAGE_MANIFEST, digest("signature"), 1, null, Map.of()));

        assertThat(recordKeys()).containsExactlyInAnyOrder(
                BucketRecords.blob(REPO, digest("layer")),
                BucketRecords.manifest(REPO, manifest),
                BucketRecords.tag(REPO, "latest"),
                BucketRecords.referrer(REPO, manifest, digest("signature")));
        assertThat(bucket.getSmall(BucketRecords.tag(REPO, "latest")).orElseThrow().asUtf8String())
                .isEqualTo(manifest.toString());
    }

    @Test
    void deletingAManifestDeletesItsRecordsWithIt() throws Exception {
        Digest manifest = digest("manifest");
        Digest subject = digest("subject");
        store.linkManifest(REPO, new ManifestRecord(manifest, IMAGE_MANIFEST, 10));
        store.putTag(REPO, "latest", manifest);
        store.addReferrer(REPO, subject, new Descriptor(IMAGE_MANIFEST, manifest, 10, null, Map.of()));

        store.unlinkManifest(REPO, manifest);

        assertThat(recordKeys()).isEmpty();
    }

    @Test
    void indexLostByRedisIsRebuiltFromTheBucketOnStart() throws Exception {
        Digest manifest = digest("manifest");
        Descriptor signature = new Descriptor(IMAGE_MANIFEST, digest("signature"), 7, "application/example",
                Map.of("created by", "a \"signer\"\nwith=odd;chars"));
        store.linkBlob(REPO, digest("layer"));
        store.linkManifest(REPO, new ManifestRecord(manifest, IMAGE_MANIFEST, 42));
        store.putTag(REPO, "latest", manifest);
        store.putTag(REPO, "v1", manifest);
        store.addReferrer(REPO, manifest, signature);
        store.close();
        forgetEverythingInRedis();

        store = reopen();

        assertThat(store.hasBlob(REPO, digest("layer"))).isTrue();
        assertThat(store.manifest(REPO, manifest)).contains(new ManifestRecord(manifest, IMAGE_MANIFEST, 42));
        assertThat(store.tags(REPO, Optional.empty(), 10)).containsExactly("latest", "v1");
        assertThat(store.referrers(REPO, manifest)).containsExactly(signature);
        assertThat(store.repositories(Optional.empty(), 10)).containsExactly(REPO);
    }

    @Test
    void rebuildIndexesEveryRecordOfABucketWithMoreRecordsThanItIndexesAtOnce() throws Exception {
        Digest manifest = digest("manifest");
        List<String> tags = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            tags.add("v%03d".formatted(i));
            store.putTag(REPO, tags.getLast(), manifest);
        }
        store.close();
        forgetEverythingInRedis();

        store = reopen();

        assertThat(store.tags(REPO, Optional.empty(), 1000)).containsExactlyElementsOf(tags);
    }

    @Test
    void runningStoreRebuildsTheIndexWhenALookupFindsRedisEmptied() throws Exception {
        Digest manifest = digest("manifest");
        store.putTag(REPO, "latest", manifest);
        forgetEverythingInRedis();

        assertThat(store.tag(REPO, "latest")).contains(manifest);
        assertThat(store.tag(REPO, "never-pushed")).isEmpty();
    }

    @Test
    void recordDeletedWhileTheRebuildPassesItDoesNotComeBack() throws Exception {
        Digest manifest = digest("manifest");
        store.putTag(REPO, "latest", manifest);
        String record = BucketRecords.tag(REPO, "latest");
        WatchedLeases watched = new WatchedLeases(record);
        RedisMetadataStore rebuilding = watchedStore(watched);
        forgetEverythingInRedis();
        Lease deleting = rebuilding.leases().acquire(record, Duration.ofSeconds(30), Duration.ofSeconds(5));
        CompletableFuture<Optional<Digest>> lookup = CompletableFuture.supplyAsync(() -> {
            try {
                return rebuilding.tag(REPO, "latest"); // finds Redis empty and rebuilds
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        // A delete that holds the record's lock, as deleteTag does, while the rebuild, having
        // listed the record, waits for that lock.
        assertThat(watched.awaited.await(30, TimeUnit.SECONDS)).as("the rebuild waits for the record's lock").isTrue();
        bucket.delete(record);
        deleting.close();

        assertThat(lookup.get(30, TimeUnit.SECONDS)).isEmpty();
        assertThat(rebuilding.tags(REPO, Optional.empty(), 10)).isEmpty();
    }

    @Test
    void entryWrittenWhileTheReconcilePassesStays() throws Exception {
        Digest manifest = digest("manifest");
        String record = BucketRecords.tag(REPO, "late");
        IndexKeys keys = new IndexKeys(namespace);
        WatchedLeases watched = new WatchedLeases(record);
        RedisMetadataStore reconciling = watchedStore(watched);
        // The tag is pushed while the reconcile runs: it holds the record's lock, and its index entry
        // is written before the reconcile lists the bucket, its record after.
        Lease pushing = reconciling.leases().acquire(record, Duration.ofSeconds(30), Duration.ofSeconds(5));
        try (RedisConnection connection = RedisConnection.open(redisUrl(), cluster())) {
            connection.commands().hset(keys.tags(REPO), "late", manifest.toString());
            connection.commands().zadd(keys.tagNames(REPO), 0, "late");
            connection.commands().set(keys.indexComplete(), "servers before a restart");
        }
        CompletableFuture<Optional<Digest>> lookup = CompletableFuture.supplyAsync(() -> {
            try {
                return reconciling.tag(REPO, "never-pushed"); // misses, and waits for the reconcile
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        assertThat(watched.awaited.await(30, TimeUnit.SECONDS)).as("the reconcile waits for the record's lock").isTrue();
        bucket.put(record, manifest.toString().getBytes(StandardCharsets.UTF_8), Map.of());
        pushing.close();

        assertThat(lookup.get(30, TimeUnit.SECONDS)).isEmpty();
        assertThat(reconciling.tag(REPO, "late")).contains(manifest);
        assertThat(reconciling.tags(REPO, Optional.empty(), 10)).containsExactly("late");
    }

    /**
     * Replaces the test's store with one whose index takes its leases through {@code watched}; the old
     * one is closed, so that no other process of this namespace starts the rebuild instead.
     */
    private RedisMetadataStore watchedStore(WatchedLeases watched) throws IOException {
        store.close();
        RedisMetadataStore replacement = new RedisMetadataStore(RedisConnection.open(redisUrl(), cluster()), bucket,
                namespace, new NoDeduplicatedLayers(), leases -> {
                    watched.delegate = leases;
                    return watched;
                });
        store = replacement;
        return replacement;
    }

    /** Counts down {@link #awaited} when the index asks for the lease of one record. */
    private static final class WatchedLeases implements Leases {
        final CountDownLatch awaited = new CountDownLatch(1);
        private final String record;
        Leases delegate;

        WatchedLeases(String record) {
            this.record = record;
        }

        @Override
        public Optional<Lease> tryAcquire(String name, Duration timeToLive) throws IOException {
            return delegate.tryAcquire(name, timeToLive);
        }

        @Override
        public Lease acquire(String name, Duration timeToLive, Duration maxWait) throws IOException {
            if (name.equals(record)) {
                awaited.countDown();
            }
            return delegate.acquire(name, timeToLive, maxWait);
        }
    }

    @Test
    void twoProcessesSharingBucketAndRedisSeeEachOthersWrites() throws Exception {
        try (MetadataStore other = reopen()) {
            Digest manifest = digest("manifest");
            other.linkManifest(REPO, new ManifestRecord(manifest, IMAGE_MANIFEST, 1));
            other.putTag(REPO, "latest", manifest);

            assertThat(store.tag(REPO, "latest")).contains(manifest);
            assertThat(store.unlinkManifest(REPO, manifest)).isTrue();
            assertThat(other.tag(REPO, "latest")).isEmpty();
        }
    }

    private List<String> recordKeys() {
        List<String> keys = new ArrayList<>();
        for (S3Object object : bucket.list(BucketRecords.ROOT)) {
            keys.add(object.key());
        }
        return keys;
    }

    /** As after a Redis restart without persistence: every key of this store's namespace is gone. */
    private void forgetEverythingInRedis() {
        SharedServerStores.forgetEverythingInRedis(redisUrl(), cluster(), namespace);
    }

    /** The bucket of these tests holds no deduplicated layer for a rebuild to read. */
    private static final class NoDeduplicatedLayers implements LayerRecordFiles {
        @Override
        public Map<Digest, FileLocation> files(Digest record) {
            return Map.of();
        }

        @Override
        public boolean isRecord(Digest object) {
            return false;
        }

        @Override
        public long packSize(Digest pack) {
            return 0;
        }
    }
}
