package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ReferrerIndex;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;

/**
 * Referrers: a record per (subject, referrer) in the bucket; in Redis a hash of descriptors per
 * subject, and per referrer the set of its subjects, so deleting a manifest finds its entries.
 */
final class RedisReferrerIndex implements ReferrerIndex {

    private static final RedisScript ADD = new RedisScript("""
            redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
            redis.call('sadd', KEYS[2], ARGV[3])
            return 1""");
    private static final RedisScript REMOVE = new RedisScript("""
            local removed = redis.call('hdel', KEYS[1], ARGV[1])
            redis.call('srem', KEYS[2], ARGV[2])
            return removed""");

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;
    private final BucketRecords records;
    private final RecordLocks locks;
    private final IndexRebuild index;

    RedisReferrerIndex(RedisClusterCommands<String, String> redis, IndexKeys keys, BucketRecords records,
                       RecordLocks locks, IndexRebuild index) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.locks = locks;
        this.index = index;
    }

    @Override
    public void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        String record = BucketRecords.referrer(repository, subject, referrer.digest());
        locks.holding(record, () -> {
            records.put(record, RecordCodec.descriptor(referrer));
            index(repository, subject, referrer);
            return null;
        });
    }

    void index(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        call("add a referrer of " + subject, () -> ADD.returnsTrue(redis,
                new String[] {keys.referrers(repository, subject), keys.subjects(repository, referrer.digest())},
                referrer.digest().toString(), RecordCodec.descriptor(referrer), subject.toString()));
    }

    @Override
    public List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException {
        List<Descriptor> found = lookup(repository, subject);
        return found.isEmpty() ? index.lookAgain(() -> lookup(repository, subject)) : found;
    }

    private List<Descriptor> lookup(RepositoryName repository, Digest subject) throws IOException {
        return call("list the referrers of " + subject, () -> redis.hvals(keys.referrers(repository, subject)))
                .stream().map(RecordCodec::descriptor).sorted(Comparator.comparing(Descriptor::digest)).toList();
    }

    @Override
    public boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        String record = BucketRecords.referrer(repository, subject, referrer);
        index.ensureComplete();
        return locks.holding(record, () -> {
            records.delete(record);
            return unindex(repository, subject, referrer);
        });
    }

    boolean unindex(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        return call("remove a referrer of " + subject, () -> REMOVE.returnsTrue(redis,
                new String[] {keys.referrers(repository, subject), keys.subjects(repository, referrer)},
                referrer.toString(), subject.toString()));
    }
}
