package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.TagStore;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** Tags: a record per tag in the bucket; in Redis a hash for lookups and a sorted set for paging. */
final class RedisTagStore implements TagStore {

    private static final RedisScript PUT = new RedisScript("""
            redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
            redis.call('zadd', KEYS[2], 0, ARGV[1])
            return 1""");
    private static final RedisScript DELETE = new RedisScript("""
            local deleted = redis.call('hdel', KEYS[1], ARGV[1])
            redis.call('zrem', KEYS[2], ARGV[1])
            return deleted""");

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;
    private final BucketRecords records;
    private final RecordLocks locks;
    private final IndexRebuild index;

    RedisTagStore(RedisClusterCommands<String, String> redis, IndexKeys keys, BucketRecords records, RecordLocks locks,
                  IndexRebuild index) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.locks = locks;
        this.index = index;
    }

    @Override
    public void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException {
        String record = BucketRecords.tag(repository, tag);
        locks.holding(record, () -> {
            records.put(record, manifest.toString());
            index(repository, tag, manifest);
            return null;
        });
    }

    void index(RepositoryName repository, String tag, Digest manifest) throws IOException {
        call("tag " + repository + ":" + tag, () -> PUT.returnsTrue(redis, tagKeys(repository), tag, manifest.toString()));
    }

    @Override
    public Optional<Digest> tag(RepositoryName repository, String tag) throws IOException {
        Optional<Digest> found = lookup(repository, tag);
        return found.isEmpty() ? index.lookAgain(() -> lookup(repository, tag)) : found;
    }

    private Optional<Digest> lookup(RepositoryName repository, String tag) throws IOException {
        return Optional.ofNullable(call("read tag " + repository + ":" + tag, () -> redis.hget(keys.tags(repository), tag)))
                .map(Digest::parse);
    }

    @Override
    public boolean deleteTag(RepositoryName repository, String tag) throws IOException {
        String record = BucketRecords.tag(repository, tag);
        index.ensureComplete();
        return locks.holding(record, () -> {
            records.delete(record);
            return unindex(repository, tag);
        });
    }

    boolean unindex(RepositoryName repository, String tag) throws IOException {
        return call("delete tag " + repository + ":" + tag, () -> DELETE.returnsTrue(redis, tagKeys(repository), tag));
    }

    @Override
    public List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        if (limit == 0) {
            return List.of();
        }
        List<String> page = page(repository, after, limit);
        return page.isEmpty() ? index.lookAgain(() -> page(repository, after, limit)) : page;
    }

    private List<String> page(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        return call("list tags of " + repository,
                () -> redis.zrangebylex(keys.tagNames(repository), Pages.after(after), Pages.first(limit)));
    }

    private String[] tagKeys(RepositoryName repository) {
        return new String[] {keys.tags(repository), keys.tagNames(repository)};
    }
}
