package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.dedup.TakenTask;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The dedup queue as a Redis Stream read by one consumer group: an entry per queued layer, the
 * group's pending entries list (PEL) holding who took each entry and how many times it was handed
 * out. Every operation is one Lua script over the keys of one slot ({@link DedupKeys}), on the
 * Redis clock ({@code TIME}), so processes with skewed clocks agree on when a lease ran out.
 *
 * <p><b>Leases.</b> A stream knows only how long an entry has been idle, and the port lets every take
 * choose its own lease; so the expiry of each taken entry is kept in a sorted set, and a take first
 * reclaims the entry whose lease ran out longest ago (XCLAIM, which counts the delivery), else reads
 * a new one (XREADGROUP {@code >}). A renewal also XCLAIMs the entry to its holder with JUSTID, which
 * resets its idle time without counting a delivery, so XPENDING shows operators what is stuck.
 *
 * <p><b>Durability.</b> The queue is as durable as Redis is ({@code appendfsync always} loses no
 * acknowledged task). A Redis that restarts from an older snapshot, or a replica that lagged and
 * took over, may lack tasks queued in the lost window, or hand out again a task completed in it
 * (harmless: work on a layer is idempotent). The lost ones are not lost for good: their layers'
 * manifests are records in the bucket, and a layer of theirs with no state in the dedup index (see
 * {@link RedisDedupIndex}, whose layer states are rebuilt from the bucket) is queued again by the
 * backfill, which re-reads the manifests ({@code POST /actuator/dedup/backfill}).
 */
final class RedisDedupQueue implements DedupQueue {

    private static final String GROUP = "dedup-workers";

    /** Redis time in milliseconds, at the start of a script that needs it. */
    private static final String NOW = """
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """;

    /** KEYS: stream, queued layers. ARGV: group, layer, media type, size. */
    private static final RedisScript ENQUEUE = new RedisScript("""
            if redis.call('hexists', KEYS[2], ARGV[2]) == 1 then
              return 0
            end
            if redis.call('exists', KEYS[1]) == 0 then
              redis.call('xgroup', 'create', KEYS[1], ARGV[1], '0', 'MKSTREAM')
            end
            local id = redis.call('xadd', KEYS[1], '*', 'layer', ARGV[2], 'media-type', ARGV[3], 'size', ARGV[4])
            redis.call('hset', KEYS[2], ARGV[2], id)
            return 1""");

    /**
     * KEYS: stream, leases. ARGV: group, worker, lease in milliseconds.
     * Returns an empty array, or the entry's id, its delivery count and its fields.
     */
    private static final RedisScript TAKE = new RedisScript(NOW + """
            if redis.call('exists', KEYS[1]) == 0 then
              return {}
            end
            local entry
            for _, id in ipairs(redis.call('zrangebyscore', KEYS[2], '-inf', now, 'LIMIT', 0, 10)) do
              local claimed = redis.call('xclaim', KEYS[1], ARGV[1], ARGV[2], 0, id)
              if #claimed > 0 then
                entry = claimed[1]
                break
              end
              redis.call('zrem', KEYS[2], id)
            end
            if not entry then
              local read = redis.call('xreadgroup', 'GROUP', ARGV[1], ARGV[2], 'COUNT', 1, 'STREAMS', KEYS[1], '>')
              if not read then
                return {}
              end
              entry = read[1][2][1]
            end
            redis.call('zadd', KEYS[2], now + tonumber(ARGV[3]), entry[1])
            local pending = redis.call('xpending', KEYS[1], ARGV[1], entry[1], entry[1], 1)
            return {entry[1], pending[1][4], entry[2]}""");

    /** KEYS: stream, leases. ARGV: group, worker, id, deliveries, lease in milliseconds. */
    private static final RedisScript RENEW = new RedisScript(NOW + """
            local expiry = redis.call('zscore', KEYS[2], ARGV[3])
            if not expiry or tonumber(expiry) <= now then
              return 0
            end
            local pending = redis.call('xpending', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
            if #pending == 0 or pending[1][2] ~= ARGV[2] or pending[1][4] ~= tonumber(ARGV[4]) then
              return 0
            end
            redis.call('xclaim', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
            redis.call('zadd', KEYS[2], now + tonumber(ARGV[5]), ARGV[3])
            return 1""");

    /** KEYS: stream, leases, queued layers. ARGV: group, id, layer. */
    private static final RedisScript COMPLETE = new RedisScript("""
            if redis.call('exists', KEYS[1]) == 1 then
              redis.call('xack', KEYS[1], ARGV[1], ARGV[2])
              redis.call('xdel', KEYS[1], ARGV[2])
            end
            redis.call('zrem', KEYS[2], ARGV[2])
            if redis.call('hget', KEYS[3], ARGV[3]) == ARGV[2] then
              redis.call('hdel', KEYS[3], ARGV[3])
            end
            return 1""");

    private final RedisClusterCommands<String, String> redis;
    private final DedupKeys keys;

    RedisDedupQueue(RedisClusterCommands<String, String> redis, DedupKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void enqueue(LayerTask task) throws IOException {
        call("queue layer " + task.layer() + " for dedup", () -> ENQUEUE.run(redis, ScriptOutputType.INTEGER,
                new String[] {keys.stream(), keys.queuedLayers()}, GROUP, task.layer().toString(), task.mediaType(),
                Long.toString(task.size())));
    }

    @Override
    public Optional<TakenTask> take(String worker, Duration lease) throws IOException {
        List<Object> taken = call("take a dedup task", () -> TAKE.run(redis, ScriptOutputType.MULTI,
                new String[] {keys.stream(), keys.leases()}, GROUP, worker, Long.toString(lease.toMillis())));
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        List<?> fields = (List<?>) taken.get(2);
        String layer = null;
        String mediaType = null;
        long size = 0;
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            String value = (String) fields.get(i + 1);
            switch ((String) fields.get(i)) {
                case "layer" -> layer = value;
                case "media-type" -> mediaType = value;
                case "size" -> size = Long.parseLong(value);
                default -> { }
            }
        }
        LayerTask task = new LayerTask(Digest.parse(layer), mediaType, size);
        return Optional.of(new TakenTask((String) taken.get(0), task, Math.toIntExact((Long) taken.get(1))));
    }

    @Override
    public boolean renew(TakenTask task, String worker, Duration lease) throws IOException {
        return call("renew dedup task " + task.id(), () -> RENEW.returnsTrue(redis,
                new String[] {keys.stream(), keys.leases()}, GROUP, worker, task.id(),
                Integer.toString(task.deliveries()), Long.toString(lease.toMillis())));
    }

    @Override
    public void complete(TakenTask task) throws IOException {
        call("complete dedup task " + task.id(), () -> COMPLETE.run(redis, ScriptOutputType.INTEGER,
                new String[] {keys.stream(), keys.leases(), keys.queuedLayers()}, GROUP, task.id(),
                task.task().layer().toString()));
    }

    @Override
    public long backlog() throws IOException {
        return call("count the dedup backlog", () -> redis.xlen(keys.stream()));
    }
}
