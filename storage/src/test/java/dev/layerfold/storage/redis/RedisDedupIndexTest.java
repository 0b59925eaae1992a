package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupIndexContract;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.dedup.FileClaim;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.testserver.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The index contract on a real Redis and S3 server, plus what the bucket adds: every layer state is a
 * record there, and the index comes back from those records when Redis forgets it.
 */
class RedisDedupIndexTest extends DedupIndexContract {

    private static final Digest PACK = digest("pack");

    /** What the record blobs say, as the dedup pipeline would read them from the bucket. */
    private final Map<Digest, Map<Digest, FileLocation>> recordBlobs = new ConcurrentHashMap<>();
    private final Map<Digest, Long> packSizes = new ConcurrentHashMap<>();

    /** What a rebuild reads from the bucket: the records {@link #record} wrote, and the packs' sizes. */
    private final LayerRecordFiles bucket = new LayerRecordFiles() {
        @Override
        public Map<Digest, FileLocation> files(Digest record) {
            return recordBlobs.getOrDefault(record, Map.of());
        }

        @Override
        public boolean isRecord(Digest object) {
            return recordBlobs.containsKey(object);
        }

        @Override
        public long packSize(Digest pack) {
            return packSizes.getOrDefault(pack, 0L);
        }
    };
    private SharedServerStores stores;

    /** The Redis URL the stores connect to; the cluster variant overrides it. */
    protected String redisUrl() {
        return RedisServer.shared().url();
    }

    protected boolean cluster() {
        return false;
    }

    @Override
    protected DedupIndex newIndex() throws Exception {
        stores = new SharedServerStores(redisUrl(), cluster());
        return sameIndex();
    }

    @Override
    protected DedupIndex sameIndex() throws Exception {
        return open().dedupIndex();
    }

    private RedisMetadataStore open() throws Exception {
        return stores.open(bucket);
    }

    @AfterEach
    void close() {
        if (stores != null) {
            stores.close();
        }
    }

    @Test
    void everyLayerStateIsARecordInTheBucketUntilTheLayerIsReleased() throws Exception {
        DedupIndex index = newIndex();
        Digest layer = digest("layer");
        Digest kept = digest("kept intact");
        Map<Digest, FileLocation> files = files("a", "b");
        index.packStored(PACK, 20, files);
        index.commitLayer(layer, new LayerState.Deduplicated(digest("record"), 1000, 100), files.keySet());
        index.keepIntact(kept, "not reproducible");

        assertThat(records()).containsExactly(DedupLayerRecords.key(kept), DedupLayerRecords.key(layer));
        assertThat(stores.bucket().getSmall(DedupLayerRecords.key(layer)).orElseThrow().asUtf8String())
                .isEqualTo("deduplicated " + digest("record") + " 1000 100 2");
        assertThat(stores.bucket().getSmall(DedupLayerRecords.key(kept)).orElseThrow().asUtf8String())
                .isEqualTo("intact not reproducible");

        index.releaseLayer(layer, files.keySet());

        assertThat(records()).containsExactly(DedupLayerRecords.key(kept));
    }

    @Test
    void aCommitThatFailsLeavesNoRecord() throws Exception {
        DedupIndex index = newIndex();
        Digest layer = digest("layer");
        index.keepIntact(layer, "first try failed");

        assertThat(index.commitLayer(layer, new LayerState.Deduplicated(digest("record"), 1, 1), List.of(digest("missing"))))
                .isFalse();

        assertThat(stores.bucket().getSmall(DedupLayerRecords.key(layer)).orElseThrow().asUtf8String())
                .isEqualTo("intact first try failed");
    }

    @Test
    void indexForgottenByRedisIsRebuiltFromTheLayerRecords() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> first = files("shared", "only in first");
        Map<Digest, FileLocation> second = files("shared", "only in second");
        Map<Digest, FileLocation> released = files("shared", "only in released");
        Digest firstRecord = record(first);
        Digest secondRecord = record(second);
        Digest releasedRecord = record(released);
        packSizes.put(PACK, 100L);
        for (Map<Digest, FileLocation> files : List.of(first, second, released)) {
            index.packStored(PACK, 100, files);
        }
        index.commitLayer(digest("first"), new LayerState.Deduplicated(firstRecord, 1000, 100), first.keySet());
        index.commitLayer(digest("second"), new LayerState.Deduplicated(secondRecord, 500, 10), second.keySet());
        index.commitLayer(digest("released"), new LayerState.Deduplicated(releasedRecord, 7, 7), released.keySet());
        index.releaseLayer(digest("released"), released.keySet());
        index.keepIntact(digest("zstd"), "zstd");

        stores.forgetEverythingInRedis();

        assertThat(index.file(digest("shared"))).contains(first.get(digest("shared")));
        assertThat(index.references(digest("shared"))).isEqualTo(2);
        assertThat(index.references(digest("only in second"))).isEqualTo(1);
        assertThat(index.file(digest("only in released"))).as("only a released layer had it").isEmpty();
        assertThat(index.layer(digest("first"))).contains(new LayerState.Deduplicated(firstRecord, 1000, 100));
        assertThat(index.layer(digest("released"))).isEmpty();
        assertThat(index.layer(digest("zstd"))).contains(new LayerState.Intact("zstd"));
        // The released layer's file, stored but no longer referenced, is not brought back: it is garbage in its pack.
        assertThat(sameIndex().totals()).isEqualTo(new DedupTotals(2, 1500, 100 + 110, 4, 3, Map.of("zstd", 1L)));
    }

    @Test
    void aRebuildFollowsTheFilesOfRewrittenPacksToWhereTheyWentAsTheRecordsStillNameTheOldPacks() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> files = files("moved twice", "never moved");
        Digest record = record(files);
        index.packStored(PACK, 100, files);
        index.commitLayer(digest("layer"), new LayerState.Deduplicated(record, 1000, 100), files.keySet());
        Digest file = digest("moved twice");
        Digest second = digest("second pack");
        Digest third = digest("third pack");
        index.relocate(PACK, 1, Optional.of(new PackCopy(second, 10, Map.of(file, files.get(file).offset()),
                Map.of(file, new FileLocation(second, 0, 10, 20)))));
        index.relocate(second, 1, Optional.of(new PackCopy(third, 30, Map.of(file, 0L),
                Map.of(file, new FileLocation(third, 20, 10, 20)))));
        packSizes.put(PACK, 100L);
        packSizes.put(third, 30L);

        stores.forgetEverythingInRedis();

        assertThat(index.file(file)).contains(new FileLocation(third, 20, 10, 20));
        assertThat(index.file(digest("never moved"))).contains(files.get(digest("never moved")));
    }

    @Test
    void aLayerIsLookedUpInTheBucketWhileTheIndexWaitsForItsRebuild() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> files = files("a");
        LayerState.Deduplicated state = new LayerState.Deduplicated(record(files), 10, 10);
        index.packStored(PACK, 10, files);
        index.commitLayer(digest("layer"), state, files.keySet());
        stores.forgetEverythingInRedis();
        RedisMetadataStore store = open();

        // Another process holds the rebuild's lease (it is rebuilding): lookups of a layer do not wait for it.
        try (Lease rebuilding = store.leases().acquire("dedup-index-rebuild", Duration.ofSeconds(30), Duration.ofSeconds(5))) {
            CompletableFuture<Optional<LayerState>> lookup = CompletableFuture.supplyAsync(() -> {
                try {
                    return index.layer(digest("layer"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThat(lookup.get(30, TimeUnit.SECONDS)).contains(state);
        }
        assertThat(index.references(digest("a"))).isEqualTo(1);
    }

    @Test
    void aReleaseAfterTheRebuildGivesBackTheReferencesTheRebuildCounted() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> files = files("a");
        Digest layer = digest("layer");
        index.packStored(PACK, 10, files);
        index.commitLayer(layer, new LayerState.Deduplicated(record(files), 10, 10), files.keySet());
        stores.forgetEverythingInRedis();
        assertThat(index.references(digest("a"))).as("rebuilt").isEqualTo(1);

        assertThat(sameIndex().releaseLayer(layer, files.keySet())).isTrue();

        assertThat(index.references(digest("a"))).isZero();
        assertThat(index.forgetUnreferenced(files.keySet(), System.currentTimeMillis() + 60_000)).containsExactly(digest("a"));
        assertThat(index.totals()).isEqualTo(new DedupTotals(0, 0, 0, 0, 0, Map.of()));
    }

    @Test
    void aLayerReleasedWhileRedisHasLostTheIndexStaysReleased() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> files = files("a");
        Digest layer = digest("layer");
        index.packStored(PACK, 10, files);
        index.commitLayer(layer, new LayerState.Deduplicated(record(files), 10, 10), files.keySet());
        stores.forgetEverythingInRedis();

        // The release deletes the record first, then finds the index gone and waits for the rebuild.
        assertThat(sameIndex().releaseLayer(layer, files.keySet())).isTrue();

        assertThat(index.layer(layer)).isEmpty();
        assertThat(index.references(digest("a"))).isZero();
        assertThat(index.totals()).isEqualTo(new DedupTotals(0, 0, 0, 0, 0, Map.of()));
    }

    @Test
    void aLayerOfTenThousandFilesIsClaimedStoredCommittedAndReleasedInOneCallEach() throws Exception {
        DedupIndex index = newIndex();
        Map<Digest, FileLocation> files = new LinkedHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            files.put(digest("file " + i), new FileLocation(PACK, i * 10L, 10, 20));
        }
        Digest layer = digest("big layer");

        assertThat(index.claimFiles(files.keySet(), "w1", Duration.ofMinutes(1)).values())
                .hasSize(10_000).allMatch(claim -> claim.status() == FileClaim.Status.CLAIMED);
        index.packStored(PACK, 100_000, files);
        // Nothing stored: every file was there already, as for a layer rebuilt with other timestamps.
        assertThat(index.commitLayer(layer, new LayerState.Deduplicated(record(files), 1, 0), files.keySet())).isTrue();
        assertThat(index.totals().fileReferences()).isEqualTo(10_000);
        assertThat(index.releaseLayer(layer, files.keySet())).isTrue();

        assertThat(index.forgetUnreferenced(files.keySet(), System.currentTimeMillis() + 60_000)).hasSize(10_000);
        // The pack stays until the garbage collector rewrites it.
        assertThat(index.totals()).isEqualTo(new DedupTotals(0, 0, 100_000, 0, 0, Map.of()));
    }

    @Test
    void aRedisRestartedFromAnOlderSnapshotIsRebuiltFromTheBucket() throws Exception {
        Map<Digest, FileLocation> early = files("early");
        Map<Digest, FileLocation> late = files("late");
        try (RedisServer.Restartable redis = cluster() ? RedisServer.startRestartableCluster() : RedisServer.startRestartable();
             SharedServerStores restartable = new SharedServerStores(redis.url(), cluster())) {
            DedupIndex index = restartable.open(bucket).dedupIndex();
            packSizes.put(PACK, 10L);
            index.packStored(PACK, 10, early);
            index.commitLayer(digest("early"), new LayerState.Deduplicated(record(early), 10, 10), early.keySet());
            index.keepIntact(digest("late intact"), "damaged");
            save(redis);
            index.releaseLayer(digest("early"), early.keySet());
            index.packStored(PACK, 10, late);
            index.commitLayer(digest("late"), new LayerState.Deduplicated(record(late), 20, 20), late.keySet());
            index.keepIntact(digest("late intact"), "hostile");

            redis.kill();
            redis.start(); // loads the snapshot: the early layer, and not the late one

            // Each call checks the index's marker; the restarted servers' fingerprint differs, so it waits for a rebuild.
            assertThat(awaitFingerprintChange(index)).isEqualTo(new DedupTotals(1, 20, 10 + 20, 1, 1, Map.of("hostile", 1L)));
            assertThat(index.layer(digest("early"))).isEmpty();
            assertThat(index.references(digest("early"))).isZero();
            assertThat(index.references(digest("late"))).isEqualTo(1);
            assertThat(index.file(digest("late"))).contains(late.get(digest("late")));
        }
    }

    /**
     * The store learns that Redis restarted when its connection comes back (the same watch as the
     * metadata index's); until then a call may still see the snapshot.
     */
    private static DedupTotals awaitFingerprintChange(DedupIndex index) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        DedupTotals totals = index.totals();
        while (totals.layersDeduplicated() != 1 || totals.logicalBytes() != 20) {
            if (System.nanoTime() > deadline) {
                return totals;
            }
            Thread.sleep(100);
            totals = index.totals();
        }
        return totals;
    }

    private Digest record(Map<Digest, FileLocation> files) {
        Digest record = digest("record of " + files.keySet());
        recordBlobs.put(record, files);
        return record;
    }

    private static Map<Digest, FileLocation> files(String... names) {
        Map<Digest, FileLocation> files = new LinkedHashMap<>();
        for (String name : names) {
            files.put(digest(name), new FileLocation(PACK, Math.abs(name.hashCode() % 1000) * 10L, 10, 20));
        }
        return files;
    }

    private List<String> records() {
        List<String> keys = new ArrayList<>();
        for (S3Object object : stores.bucket().list(DedupLayerRecords.ROOT)) {
            keys.add(object.key());
        }
        return keys;
    }

    private void save(RedisServer.Restartable redis) {
        try (RedisConnection connection = RedisConnection.open(redis.url(), cluster())) {
            assertThat(connection.commands().save()).isEqualTo("OK");
        }
    }
}
