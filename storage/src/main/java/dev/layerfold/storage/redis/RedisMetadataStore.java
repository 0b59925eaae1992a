package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.s3.S3Bucket;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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
 * <p><b>Rebuild</b>: a marker key says the index is complete. Without it (new, flushed or
 * non-persistent Redis) the first process to notice rebuilds the index from the bucket under a lease
 * while the others wait ({@link IndexRebuild}): at start-up, and whenever a lookup finds nothing.
 * Redis persistence still matters for one thing: a Redis that restarts with a persisted but slightly
 * old data set keeps its marker, so its index misses the last writes until it is rebuilt; run Redis
 * with {@code appendfsync always}, or delete the marker key after such a restart.
 *
 * <p><b>Uploads</b> live in Redis only ({@link RedisUploadStates}): in-progress uploads serve no
 * image, and their bytes are in the bucket where the blob store's sweeper finds abandoned ones.
 */
public final class RedisMetadataStore implements MetadataStore {

    private final RedisConnection connection;
    private final RedisLeases leases;
    private final RedisRepositoryIndex repositories;
    private final RedisTagStore tags;
    private final RedisReferrerIndex referrers;
    private final RedisUploadStates uploads;

    /**
     * Opens the store over its own Redis connection (closed with the store) and a bucket owned by the
     * caller, rebuilding the index first if Redis does not hold a complete one.
     *
     * @param namespace prefix of every Redis key, so several registries can share one Redis
     */
    public RedisMetadataStore(RedisConnection connection, S3Bucket bucket, String namespace) throws IOException {
        this.connection = connection;
        var redis = connection.commands();
        IndexKeys keys = new IndexKeys(namespace);
        BucketRecords records = new BucketRecords(bucket);
        this.leases = new RedisLeases(redis, namespace);
        RecordLocks locks = new RecordLocks(leases);
        Catalog catalog = new Catalog(redis, keys);
        IndexRebuild index = new IndexRebuild(redis, keys, records, leases, this::reindex);
        this.repositories = new RedisRepositoryIndex(redis, keys, records, locks, index, catalog);
        this.tags = new RedisTagStore(redis, keys, records, locks, index);
        this.referrers = new RedisReferrerIndex(redis, keys, records, locks, index);
        this.uploads = new RedisUploadStates(redis, keys);
        try {
            index.ensureComplete();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Leases in the same Redis, for other work only one process may do at a time. */
    public Leases leases() {
        return leases;
    }

    /** Fails unless Redis answers: for health checks. */
    public void checkReachable() throws IOException {
        RedisCalls.call("answer PING", () -> connection.commands().ping());
    }

    private void reindex(BucketRecords.Fact fact, Optional<String> body) throws IOException {
        if (body.isEmpty()) {
            return; // deleted since the listing
        }
        switch (fact) {
            case BucketRecords.BlobLink link -> repositories.indexBlob(link.repository(), link.blob());
            case BucketRecords.ManifestLink link -> repositories.indexManifest(link.repository(),
                    RecordCodec.manifest(body.get()));
            case BucketRecords.Tag tag -> tags.index(tag.repository(), tag.tag(), Digest.parse(body.get()));
            case BucketRecords.Referrer referrer -> referrers.index(referrer.repository(), referrer.subject(),
                    RecordCodec.descriptor(body.get()));
        }
    }

    @Override
    public void linkBlob(RepositoryName repository, Digest blob) throws IOException {
        repositories.linkBlob(repository, blob);
    }

    @Override
    public boolean hasBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositories.hasBlob(repository, blob);
    }

    @Override
    public boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException {
        return repositories.unlinkBlob(repository, blob);
    }

    @Override
    public void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        repositories.linkManifest(repository, manifest);
    }

    @Override
    public Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException {
        return repositories.manifest(repository, digest);
    }

    @Override
    public boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException {
        return repositories.unlinkManifest(repository, digest);
    }

    @Override
    public boolean repositoryExists(RepositoryName repository) throws IOException {
        return repositories.repositoryExists(repository);
    }

    @Override
    public List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException {
        return repositories.repositories(after, limit);
    }

    @Override
    public void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException {
        tags.putTag(repository, tag, manifest);
    }

    @Override
    public Optional<Digest> tag(RepositoryName repository, String tag) throws IOException {
        return tags.tag(repository, tag);
    }

    @Override
    public boolean deleteTag(RepositoryName repository, String tag) throws IOException {
        return tags.deleteTag(repository, tag);
    }

    @Override
    public List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        return tags.tags(repository, after, limit);
    }

    @Override
    public void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        referrers.addReferrer(repository, subject, referrer);
    }

    @Override
    public List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException {
        return referrers.referrers(repository, subject);
    }

    @Override
    public boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        return referrers.removeReferrer(repository, subject, referrer);
    }

    @Override
    public void createUpload(UploadState state) throws IOException {
        uploads.createUpload(state);
    }

    @Override
    public Optional<UploadState> upload(String uploadId) throws IOException {
        return uploads.upload(uploadId);
    }

    @Override
    public boolean advanceUpload(UploadState next, long expectedSize) throws IOException {
        return uploads.advanceUpload(next, expectedSize);
    }

    @Override
    public boolean deleteUpload(String uploadId) throws IOException {
        return uploads.deleteUpload(uploadId);
    }

    @Override
    public List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException {
        return uploads.uploadsIdleSince(cutoff);
    }

    @Override
    public void close() {
        leases.close();
        connection.close();
    }
}
