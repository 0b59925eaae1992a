package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.metadata.UploadStateStore;
import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Upload bookkeeping, in Redis only: an upload in progress is not needed to serve any image, and its
 * bytes are in the bucket, where the blob store's sweeper finds abandoned ones even if Redis lost
 * their state. Each upload is a hash; scripts keep it and the by-update-time index in step.
 */
final class RedisUploadStates implements UploadStateStore {

    private static final RedisScript CREATE = new RedisScript("""
            if redis.call('exists', KEYS[1]) == 1 then return 0 end
            redis.call('hset', KEYS[1], 'repository', ARGV[1], 'size', ARGV[2], 'hash', ARGV[3],
                       'started', ARGV[4], 'updated', ARGV[5])
            redis.call('zadd', KEYS[2], ARGV[5], ARGV[6])
            return 1""");
    /** Takes the upload for one request; a hash without a claim (or written before claims) is free. */
    private static final RedisScript CLAIM = new RedisScript("""
            if redis.call('hget', KEYS[1], 'size') ~= ARGV[1] then return 0 end
            local renewed = redis.call('hget', KEYS[1], 'renewed')
            if redis.call('hexists', KEYS[1], 'claim') == 1 and tonumber(renewed) >= tonumber(ARGV[4]) then return 0 end
            redis.call('hset', KEYS[1], 'claim', ARGV[2], 'renewed', ARGV[3], 'updated', ARGV[3])
            redis.call('zadd', KEYS[2], ARGV[3], ARGV[5])
            return 1""");
    private static final RedisScript RENEW = new RedisScript("""
            if redis.call('hget', KEYS[1], 'claim') ~= ARGV[1] then return 0 end
            redis.call('hset', KEYS[1], 'renewed', ARGV[2], 'updated', ARGV[2])
            redis.call('zadd', KEYS[2], ARGV[2], ARGV[3])
            return 1""");
    private static final RedisScript RELEASE = new RedisScript("""
            if redis.call('hget', KEYS[1], 'claim') ~= ARGV[1] then return 0 end
            redis.call('hdel', KEYS[1], 'claim', 'renewed')
            return 1""");
    /** Compare-and-set on the size and the claim (empty: none): of two requests racing on one upload, one advances it. */
    private static final RedisScript ADVANCE = new RedisScript("""
            if redis.call('hget', KEYS[1], 'size') ~= ARGV[1] then return 0 end
            if (redis.call('hget', KEYS[1], 'claim') or '') ~= ARGV[6] then return 0 end
            redis.call('hdel', KEYS[1], 'claim', 'renewed')
            redis.call('hset', KEYS[1], 'size', ARGV[2], 'hash', ARGV[3], 'updated', ARGV[4])
            redis.call('zadd', KEYS[2], ARGV[4], ARGV[5])
            return 1""");
    private static final RedisScript DELETE = new RedisScript("""
            local deleted = redis.call('del', KEYS[1])
            redis.call('zrem', KEYS[2], ARGV[1])
            return deleted""");

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;

    RedisUploadStates(RedisClusterCommands<String, String> redis, IndexKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void createUpload(UploadState state) throws IOException {
        boolean created = call("create upload " + state.id(), () -> CREATE.returnsTrue(redis, keys(state.id()),
                state.repository().value(), Long.toString(state.size()), encode(state.hashState()),
                millis(state.startedAt()), millis(state.updatedAt()), state.id()));
        if (!created) {
            throw new IOException("upload " + state.id() + " already exists; upload ids must be unique");
        }
    }

    @Override
    public Optional<UploadState> upload(String uploadId) throws IOException {
        Map<String, String> fields = call("read upload " + uploadId, () -> redis.hgetall(keys.upload(uploadId)));
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UploadState(uploadId, RepositoryName.of(fields.get("repository")),
                Long.parseLong(fields.get("size")), Base64.getDecoder().decode(fields.get("hash")),
                Instant.ofEpochMilli(Long.parseLong(fields.get("started"))),
                Instant.ofEpochMilli(Long.parseLong(fields.get("updated")))));
    }

    @Override
    public boolean claimUpload(String uploadId, long expectedSize, String claim, Instant now, Instant expiredBefore)
            throws IOException {
        return call("claim upload " + uploadId, () -> CLAIM.returnsTrue(redis, keys(uploadId),
                Long.toString(expectedSize), claim, millis(now), millis(expiredBefore), uploadId));
    }

    @Override
    public boolean renewClaim(String uploadId, String claim, Instant now) throws IOException {
        return call("renew the claim on upload " + uploadId, () -> RENEW.returnsTrue(redis, keys(uploadId), claim,
                millis(now), uploadId));
    }

    @Override
    public void releaseUpload(String uploadId, String claim) throws IOException {
        call("release upload " + uploadId, () -> RELEASE.returnsTrue(redis, keys(uploadId), claim));
    }

    @Override
    public boolean advanceUpload(UploadState next, long expectedSize, String claim) throws IOException {
        return call("advance upload " + next.id(), () -> ADVANCE.returnsTrue(redis, keys(next.id()),
                Long.toString(expectedSize), Long.toString(next.size()), encode(next.hashState()),
                millis(next.updatedAt()), next.id(), claim == null ? "" : claim));
    }

    @Override
    public boolean deleteUpload(String uploadId) throws IOException {
        return call("delete upload " + uploadId, () -> DELETE.returnsTrue(redis, keys(uploadId), uploadId));
    }

    @Override
    public List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException {
        List<String> ids = call("list idle uploads", () -> redis.zrangebyscore(keys.uploadsByIdleTime(),
                Range.from(Range.Boundary.unbounded(), Range.Boundary.excluding(cutoff.toEpochMilli()))));
        List<UploadState> idle = new ArrayList<>(ids.size());
        for (String id : ids) {
            upload(id).ifPresent(idle::add); // deleted since the index was read
        }
        return idle;
    }

    private String[] keys(String uploadId) {
        return new String[] {keys.upload(uploadId), keys.uploadsByIdleTime()};
    }

    private static String millis(Instant instant) {
        return Long.toString(instant.toEpochMilli());
    }

    private static String encode(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
