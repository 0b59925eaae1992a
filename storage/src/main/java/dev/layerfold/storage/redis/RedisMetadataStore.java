package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.DedupStorage;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerPulls;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcStorage;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.PartitionedMetadataStore;
import dev.layerfold.storage.metadata.ReferrerIndex;
import dev.layerfold.storage.metadata.RepositoryIndex;
import dev.layerfold.storage.metadata.TagStore;
import dev.layerfold.storage.metadata.UploadStateStore;
import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.NotificationStorage;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.PredictorStorage;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import dev.layerfold.storage.s3.S3Bucket;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Metadata for registries that share one bucket and one Redis.
 *
 * <p><b>The bucket is the system of record.</b> Every blob link, manifest link, tag and referrer is
 * a small object in the bucket that holds the blobs (layout in {@link BucketRecords}), written
 * before the call returns, so whatever a client was told succeeded survives the loss of Redis.
 * Redis holds the <em>index</em>: the same facts arranged for fast lookups and lexical paging
 * (sorted sets read with ZRANGEBYLEX), which is what every read uses.
 *
 * <p><b>Writes</b> go to the bucket first, then to the index, while holding a lease on the record
 * (see {@link RecordLocks}), so two processes changing one record apply their changes to both in
 * the same order. Changes of several index keys happen in one Lua script over keys of one cluster
 * slot (see {@link IndexKeys}): deleting a manifest removes its tags and referrer entries atomically.
 * A process that dies between the two writes leaves a record the index lacks, which is what a
 * client whose request failed expects at worst: it retries, and the write is idempotent.
 *
 * <p><b>Rebuild</b>: a marker key says the index is complete, and on which Redis servers (their run
 * ids, which change on every restart and failover). Without it (new, flushed or non-persistent
 * Redis) the first process to notice rebuilds the index from the bucket under a lease while the
 * others wait; with the marker of other servers (a Redis restarted from persistence that may be
 * older than its last writes, or a failover to a replica that may have lagged) it reconciles the
 * index with the bucket, adding what Redis lost and removing what was deleted since
 * ({@link IndexRebuild}): at start-up, when a connection comes back, every few seconds, and whenever
 * a lookup finds nothing.
 *
 * <p><b>Uploads</b> live in Redis only ({@link RedisUploadStates}): in-progress uploads serve no
 * image, and their bytes are in the bucket where the blob store's sweeper finds abandoned ones. A
 * Redis back from persistence older than its last writes may lack an upload begun since (the client
 * is told it is unknown) or hold a hash state behind the bytes (another process cannot resume it
 * and tells the client to push the blob again): such uploads start over, nothing pushed is lost.
 */
public final class RedisMetadataStore extends PartitionedMetadataStore implements DedupStorage, GcStorage, PredictorStorage,
        dev.layerfold.storage.usage.UsageStorage, NotificationStorage {

    private final RedisConnection connection;
    private final RedisLeases leases;
    private final IndexRebuild index;
    private final RedisRepositoryIndex repositories;
    private final RedisTagStore tags;
    private final RedisReferrerIndex referrers;
    private final RedisUploadStates uploads;
    private final RedisDedupQueue dedupQueue;
    private final RedisDedupIndex dedupIndex;
    private final RedisLayerPulls layerPulls;
    private final RedisGcIndex gcIndex;
    private final RedisRepositoryUsage usage;
    private final PredictorKeys predictorKeys;
    private final RedisImageLayers imageLayers;
    private final RedisNotificationOutbox notificationOutbox;

    /**
     * Opens the store over its own Redis connection (closed with the store) and a bucket owned by the
     * caller, rebuilding the index first if Redis does not hold a complete one.
     *
     * @param namespace prefix of every Redis key, so several registries can share one Redis
     */
    public RedisMetadataStore(RedisConnection connection, S3Bucket bucket, String namespace) throws IOException {
        this(connection, bucket, namespace, new NoLayerRecords());
    }

    /** For a store opened without a reader of layer records: a rebuild that finds deduplicated layers fails. */
    private static final class NoLayerRecords implements LayerRecordFiles {
        @Override
        public Map<Digest, FileLocation> files(Digest record) throws IOException {
            throw unreadable();
        }

        @Override
        public boolean isRecord(Digest object) throws IOException {
            throw unreadable();
        }

        @Override
        public long packSize(Digest pack) throws IOException {
            throw unreadable();
        }

        private static IOException unreadable() {
            return new IOException("the dedup index must be rebuilt from the bucket, which holds deduplicated layers, "
                    + "but this store was opened without a reader of their layer records (LayerRecordFiles)");
        }
    }

    /**
     * Opens the store as {@link #RedisMetadataStore(RedisConnection, S3Bucket, String)} does, with the
     * reader of layer records through which the dedup index is rebuilt if Redis loses it.
     */
    public RedisMetadataStore(RedisConnection connection, S3Bucket bucket, String namespace,
                              LayerRecordFiles layerRecordFiles) throws IOException {
        this(connection, bucket, namespace, layerRecordFiles, UnaryOperator.identity());
    }

    /**
     * @param observeLeases wraps the leases the index takes, so a test can tell when a rebuild waits
     *                      for a record's lock instead of guessing how long that takes
     */
    RedisMetadataStore(RedisConnection connection, S3Bucket bucket, String namespace, LayerRecordFiles layerRecordFiles,
                       UnaryOperator<Leases> observeLeases) throws IOException {
        this.connection = connection;
        var redis = connection.commands();
        IndexKeys keys = new IndexKeys(namespace);
        BucketRecords records = new BucketRecords(bucket);
        this.leases = new RedisLeases(redis, namespace);
        Leases observed = observeLeases.apply(leases);
        RecordLocks locks = new RecordLocks(observed);
        Catalog catalog = new Catalog(redis, keys);
        ServerFingerprint servers = new ServerFingerprint(connection);
        this.index = new IndexRebuild(redis, keys, records, observed, locks, catalog, servers, this::reindex);
        this.repositories = new RedisRepositoryIndex(redis, keys, records, locks, index, catalog);
        this.tags = new RedisTagStore(redis, keys, records, locks, index);
        this.referrers = new RedisReferrerIndex(redis, keys, records, locks, index);
        this.uploads = new RedisUploadStates(redis, keys);
        DedupKeys dedupKeys = new DedupKeys(keys);
        this.dedupQueue = new RedisDedupQueue(redis, dedupKeys);
        this.layerPulls = new RedisLayerPulls(redis, dedupKeys);
        this.dedupIndex = new RedisDedupIndex(redis, bucket, dedupKeys, new DedupLayerRecords(bucket), locks, leases, servers,
                layerRecordFiles);
        this.gcIndex = new RedisGcIndex(redis, keys, servers);
        this.usage = new RedisRepositoryUsage(redis, keys, servers);
        this.predictorKeys = new PredictorKeys(namespace);
        this.imageLayers = new RedisImageLayers(redis, predictorKeys);
        this.notificationOutbox = new RedisNotificationOutbox(redis, keys);
        try {
            index.ensureComplete();
            index.watch(connection.events());
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Per-repository accounting, in Redis only: rebuilt from the manifests in the bucket when Redis loses it. */
    @Override
    public dev.layerfold.storage.usage.RepositoryUsage repositoryUsage() {
        return usage;
    }

    /** The notification outbox, in Redis only: undelivered events are lost with Redis, nothing else is. */
    @Override
    public NotificationOutbox notificationOutbox() {
        return notificationOutbox;
    }

    /** ILmap, in Redis only: it is derived from the manifests, which are in the bucket. */
    @Override
    public ImageLayers imageLayers() {
        return imageLayers;
    }

    /** ULmap, in Redis only: losing it costs predictions, not data. */
    @Override
    public PullHistory pullHistory(PullHistoryLimits limits) {
        return new RedisPullHistory(connection.commands(), predictorKeys, limits);
    }

    /** Leases in the same Redis, for other work only one process may do at a time. */
    public Leases leases() {
        return leases;
    }

    /** The dedup pipeline's work queue, a Redis Stream shared by the workers of every process. */
    @Override
    public DedupQueue dedupQueue() {
        return dedupQueue;
    }

    /**
     * The dedup pipeline's file index, reference counts and layer states: in Redis, with every layer's
     * state also a record in the bucket, from which it is rebuilt when Redis loses it.
     */
    @Override
    public DedupIndex dedupIndex() {
        return dedupIndex;
    }

    @Override
    public LayerPulls layerPulls() {
        return layerPulls;
    }

    /**
     * The garbage collector's references, candidates and condemnations, in Redis only: when Redis
     * loses them the collector rebuilds the references from the manifests before it condemns again.
     */
    @Override
    public GcIndex gcIndex() {
        return gcIndex;
    }

    /**
     * Returns once the index is complete on the current Redis servers, running or waiting for the
     * rebuild or reconcile that makes it so: a lookup right after a Redis restart may still see an
     * entry deleted in the lost window until then.
     */
    void awaitIndexComplete() throws IOException {
        index.ensureComplete();
    }

    /** Fails unless Redis answers: for health checks. */
    public void checkReachable() throws IOException {
        RedisCalls.call("answer PING", () -> connection.commands().ping());
    }

    /** The index follows the bucket: a record present is (re)indexed, a record absent is removed. */
    private void reindex(BucketRecords.Fact fact, Optional<String> body) throws IOException {
        switch (fact) {
            case BucketRecords.BlobLink link -> {
                if (body.isPresent()) {
                    repositories.indexBlob(link.repository(), link.blob());
                } else {
                    repositories.unindexBlob(link.repository(), link.blob());
                }
            }
            case BucketRecords.ManifestLink link -> {
                if (body.isPresent()) {
                    repositories.indexManifest(link.repository(), RecordCodec.manifest(body.get()));
                } else {
                    repositories.unindexManifest(link.repository(), link.manifest());
                }
            }
            case BucketRecords.Tag tag -> {
                if (body.isPresent()) {
                    tags.index(tag.repository(), tag.tag(), Digest.parse(body.get()));
                } else {
                    tags.unindex(tag.repository(), tag.tag());
                }
            }
            case BucketRecords.Referrer referrer -> {
                if (body.isPresent()) {
                    referrers.index(referrer.repository(), referrer.subject(), RecordCodec.descriptor(body.get()));
                } else {
                    referrers.unindex(referrer.repository(), referrer.subject(), referrer.referrer());
                }
            }
        }
    }

    @Override
    protected RepositoryIndex repositoryIndex() {
        return repositories;
    }

    @Override
    protected TagStore tagStore() {
        return tags;
    }

    @Override
    protected ReferrerIndex referrerIndex() {
        return referrers;
    }

    @Override
    protected UploadStateStore uploadStateStore() {
        return uploads;
    }

    @Override
    public void close() {
        index.close();
        leases.close();
        connection.close();
    }
}
