package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.RepositoryIndex;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Blob and manifest links: a record each in the bucket; in Redis a set of blobs and a hash of manifests. */
final class RedisRepositoryIndex implements RepositoryIndex {

    /**
     * Removes a manifest, the tags given in ARGV that still point at it, and its entries in the
     * referrer hashes given in KEYS, in one atomic step.
     * KEYS: manifests, tags, tag names, the manifest's subjects set, the referrer hash of each subject.
     * ARGV: the digest, then the tags.
     */
    private static final RedisScript UNLINK_MANIFEST = new RedisScript("""
            local existed = redis.call('hdel', KEYS[1], ARGV[1])
            for i = 2, #ARGV do
              if redis.call('hget', KEYS[2], ARGV[i]) == ARGV[1] then
                redis.call('hdel', KEYS[2], ARGV[i])
                redis.call('zrem', KEYS[3], ARGV[i])
              end
            end
            for i = 5, #KEYS do
              redis.call('hdel', KEYS[i], ARGV[1])
            end
            redis.call('del', KEYS[4])
            return existed""");

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;
    private final BucketRecords records;
    private final RecordLocks locks;
    private final IndexRebuild index;
    private final Catalog catalog;

    RedisRepositoryIndex(RedisClusterCommands<String, String> redis, IndexKeys keys, BucketRecords records,
                         RecordLocks locks, IndexRebuild index, Catalog catalog) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.locks = locks;
        this.index = index;
        this.catalog = catalog;
    }

    @Override
    public void linkBlob(RepositoryName repository, Digest blob) throws IOException {
        String record = BucketRecords.blob(repository, blob);
        locks.holding(record, () -> {
            records.put(record, "");
            indexBlob(repository, blob);
            return null;
        });
    }

    void indexBlob(RepositoryName repository, Digest blob) throws IOException {
        call("link blob " + blob, () -> redis.sadd(keys.blobs(repository), blob.toString()));
        catalog.remember(repository);
    }

    @Override
    public boolean hasBlob(RepositoryName repository, Digest blob) throws IOException {
        boolean linked = isLinked(repository, blob);
        return linked || index.lookAgain(() -> isLinked(repository, blob));
    }

    private boolean isLinked(RepositoryName repository, Digest blob) throws IOException {
        return call("check blob " + blob, () -> redis.sismember(keys.blobs(repository), blob.toString()));
    }

    @Override
    public boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException {
        String record = BucketRecords.blob(repository, blob);
        index.ensureComplete();
        boolean unlinked = locks.holding(record, () -> {
            records.delete(record);
            return unindexBlob(repository, blob);
        });
        catalog.forgetIfEmpty(repository);
        return unlinked;
    }

    /** Removes the blob link from the index; the caller updates the catalog. */
    boolean unindexBlob(RepositoryName repository, Digest blob) throws IOException {
        return call("unlink blob " + blob, () -> redis.srem(keys.blobs(repository), blob.toString())) > 0;
    }

    @Override
    public void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        String record = BucketRecords.manifest(repository, manifest.digest());
        locks.holding(record, () -> {
            records.put(record, RecordCodec.manifest(manifest));
            indexManifest(repository, manifest);
            return null;
        });
    }

    void indexManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        call("link manifest " + manifest.digest(), () -> redis.hset(keys.manifests(repository),
                manifest.digest().toString(), RecordCodec.manifest(manifest)));
        catalog.remember(repository);
    }

    @Override
    public Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException {
        Optional<ManifestRecord> found = lookup(repository, digest);
        return found.isEmpty() ? index.lookAgain(() -> lookup(repository, digest)) : found;
    }

    private Optional<ManifestRecord> lookup(RepositoryName repository, Digest digest) throws IOException {
        return Optional.ofNullable(call("read manifest " + digest,
                () -> redis.hget(keys.manifests(repository), digest.toString()))).map(RecordCodec::manifest);
    }

    /**
     * Reads the whole hash and pages it in memory: only the collector's rebuild and the checker list
     * manifests, and they visit every page anyway.
     */
    @Override
    public List<ManifestRecord> manifests(RepositoryName repository, Optional<Digest> after, int limit) throws IOException {
        index.ensureComplete();
        Map<String, String> all = call("list the manifests of " + repository, () -> redis.hgetall(keys.manifests(repository)));
        String start = after.map(Digest::toString).orElse("");
        return all.entrySet().stream().filter(entry -> entry.getKey().compareTo(start) > 0)
                .sorted(Map.Entry.comparingByKey()).limit(limit)
                .map(entry -> RecordCodec.manifest(entry.getValue())).toList();
    }

    /**
     * Removes only the manifest's own entry, for a reconcile that found its record gone: its tags and
     * referrer entries have records of their own, which the reconcile applies one by one (a tag
     * record left pointing at the manifest keeps its entry). The caller updates the catalog.
     */
    void unindexManifest(RepositoryName repository, Digest manifest) throws IOException {
        call("unlink manifest " + manifest, () -> redis.hdel(keys.manifests(repository), manifest.toString()));
    }

    /**
     * Holds the manifest's lock, then the locks of the tags and referrer entries that name it (no
     * other change takes a manifest lock after a tag lock, so this cannot deadlock), deletes their
     * records from the bucket, and then removes them from the index in one script.
     */
    @Override
    public boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException {
        String record = BucketRecords.manifest(repository, digest);
        index.ensureComplete();
        boolean unlinked = locks.holding(record, () -> {
            List<String> tags = tagsPointingAt(repository, digest);
            Set<String> subjects = call("read the subjects of " + digest,
                    () -> redis.smembers(keys.subjects(repository, digest)));
            List<String> dependents = new ArrayList<>();
            tags.forEach(tag -> dependents.add(BucketRecords.tag(repository, tag)));
            subjects.forEach(subject -> dependents.add(BucketRecords.referrer(repository, Digest.parse(subject), digest)));
            return locks.holdingAll(dependents, () -> {
                // A tag moved to another manifest before its lock was ours stays where it is.
                List<String> going = tags.stream().filter(tagsPointingAt(repository, digest)::contains).toList();
                for (String tag : going) {
                    records.delete(BucketRecords.tag(repository, tag));
                }
                for (String subject : subjects) {
                    records.delete(BucketRecords.referrer(repository, Digest.parse(subject), digest));
                }
                records.delete(record);
                return removeFromIndex(repository, digest, going, subjects);
            });
        });
        catalog.forgetIfEmpty(repository);
        return unlinked;
    }

    private List<String> tagsPointingAt(RepositoryName repository, Digest digest) throws IOException {
        Map<String, String> tags = call("read the tags of " + repository, () -> redis.hgetall(keys.tags(repository)));
        return tags.entrySet().stream().filter(tag -> tag.getValue().equals(digest.toString()))
                .map(Map.Entry::getKey).sorted().toList();
    }

    private boolean removeFromIndex(RepositoryName repository, Digest digest, List<String> tags, Set<String> subjects)
            throws IOException {
        List<String> scriptKeys = new ArrayList<>(List.of(keys.manifests(repository), keys.tags(repository),
                keys.tagNames(repository), keys.subjects(repository, digest)));
        subjects.forEach(subject -> scriptKeys.add(keys.referrers(repository, Digest.parse(subject))));
        List<String> args = new ArrayList<>();
        args.add(digest.toString());
        args.addAll(tags);
        return call("unlink manifest " + digest, () -> UNLINK_MANIFEST.returnsTrue(redis,
                scriptKeys.toArray(String[]::new), args.toArray(String[]::new)));
    }

    @Override
    public boolean repositoryExists(RepositoryName repository) throws IOException {
        return catalog.exists(repository) || index.lookAgain(() -> catalog.exists(repository));
    }

    @Override
    public List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException {
        List<RepositoryName> page = catalog.page(after, limit);
        return page.isEmpty() && limit > 0 ? index.lookAgain(() -> catalog.page(after, limit)) : page;
    }
}
