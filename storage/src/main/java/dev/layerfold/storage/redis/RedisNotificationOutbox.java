package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.OutboxBatch;
import dev.layerfold.storage.notification.OutboxEntry;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outbox in Redis: per endpoint, a list of {@code <sequence> <event>} entries, a sequence counter
 * and a hash with the lease (holder, expiry) and the backoff (retry time, failed attempts), all under
 * one hash tag per endpoint so each operation is one Lua script on one slot, on the Redis clock.
 *
 * <p>The outbox lives in Redis only: it is as durable as Redis's persistence ({@code appendfsync
 * always} loses no acknowledged event). A Redis that loses it loses the events not yet delivered;
 * nothing else depends on them.
 */
final class RedisNotificationOutbox implements NotificationOutbox {

    private static final String NOW = """
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """;

    /** KEYS: events, sequence. ARGV: capacity, then the events. Returns how many were dropped. */
    private static final RedisScript APPEND = new RedisScript("""
            for i = 2, #ARGV do
              local sequence = redis.call('incr', KEYS[2])
              redis.call('rpush', KEYS[1], sequence .. ' ' .. ARGV[i])
            end
            local over = redis.call('llen', KEYS[1]) - tonumber(ARGV[1])
            if over > 0 then
              redis.call('ltrim', KEYS[1], over, -1)
              return over
            end
            return 0""");

    /** KEYS: events, state. ARGV: holder, lease in milliseconds, max. Returns {} or {attempts, entries...}. */
    private static final RedisScript CLAIM = new RedisScript(NOW + """
            local state = redis.call('hmget', KEYS[2], 'holder', 'lease', 'not-before', 'attempts')
            if state[1] and state[1] ~= ARGV[1] and tonumber(state[2]) > now then
              return {}
            end
            if state[3] and tonumber(state[3]) > now then
              return {}
            end
            local entries = redis.call('lrange', KEYS[1], 0, tonumber(ARGV[3]) - 1)
            if #entries == 0 then
              return {}
            end
            redis.call('hset', KEYS[2], 'holder', ARGV[1], 'lease', now + tonumber(ARGV[2]))
            table.insert(entries, 1, tonumber(state[4] or '0'))
            return entries""");

    /** KEYS: state. ARGV: holder, lease in milliseconds. */
    private static final RedisScript RENEW = new RedisScript(NOW + """
            local state = redis.call('hmget', KEYS[1], 'holder', 'lease')
            if state[1] ~= ARGV[1] or tonumber(state[2]) <= now then
              return 0
            end
            redis.call('hset', KEYS[1], 'lease', now + tonumber(ARGV[2]))
            return 1""");

    /** KEYS: events, state. ARGV: holder, last sequence delivered. */
    private static final RedisScript DELIVERED = new RedisScript("""
            local last = tonumber(ARGV[2])
            local head = redis.call('lindex', KEYS[1], 0)
            while head and tonumber(string.match(head, '^(%d+) ')) <= last do
              redis.call('lpop', KEYS[1])
              head = redis.call('lindex', KEYS[1], 0)
            end
            if redis.call('hget', KEYS[2], 'holder') == ARGV[1] then
              redis.call('hdel', KEYS[2], 'holder', 'lease')
              redis.call('hset', KEYS[2], 'attempts', 0)
            end
            return 1""");

    /** KEYS: state. ARGV: holder, retry in milliseconds. */
    private static final RedisScript FAILED = new RedisScript(NOW + """
            if redis.call('hget', KEYS[1], 'holder') ~= ARGV[1] then
              return 0
            end
            redis.call('hdel', KEYS[1], 'holder', 'lease')
            redis.call('hincrby', KEYS[1], 'attempts', 1)
            redis.call('hset', KEYS[1], 'not-before', now + tonumber(ARGV[2]))
            return 1""");

    private final RedisClusterCommands<String, String> redis;
    private final String namespace;

    RedisNotificationOutbox(RedisClusterCommands<String, String> redis, IndexKeys keys) {
        this.redis = redis;
        this.namespace = keys.namespace();
    }

    /** The keys of one endpoint, under a hash tag starting with '#', which no repository name does. */
    private String key(String endpoint, String name) {
        return namespace + ":{#notify:" + endpoint + "}:" + name;
    }

    /** A script per endpoint: each endpoint's keys are a slot of their own. */
    @Override
    public Map<String, Long> append(List<OutboxAppend> appends) throws IOException {
        Map<String, Long> dropped = new LinkedHashMap<>();
        for (OutboxAppend append : appends) {
            if (append.events().isEmpty()) {
                continue;
            }
            String endpoint = append.endpoint();
            List<String> args = new ArrayList<>(append.events().size() + 1);
            args.add(Long.toString(append.capacity()));
            args.addAll(append.events());
            Long droppedHere = call("queue notifications for " + endpoint, () -> APPEND.run(redis, ScriptOutputType.INTEGER,
                    new String[] {key(endpoint, "events"), key(endpoint, "sequence")}, args.toArray(String[]::new)));
            dropped.merge(endpoint, droppedHere, Long::sum);
        }
        return dropped;
    }

    @Override
    public Optional<OutboxBatch> claim(String endpoint, String holder, Duration lease, int max) throws IOException {
        List<Object> claimed = call("claim the notifications for " + endpoint, () -> CLAIM.run(redis,
                ScriptOutputType.MULTI, new String[] {key(endpoint, "events"), key(endpoint, "state")}, holder,
                Long.toString(lease.toMillis()), Integer.toString(max)));
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        List<OutboxEntry> entries = new ArrayList<>(claimed.size() - 1);
        for (Object stored : claimed.subList(1, claimed.size())) {
            String entry = (String) stored;
            int space = entry.indexOf(' ');
            entries.add(new OutboxEntry(Long.parseLong(entry.substring(0, space)), entry.substring(space + 1)));
        }
        return Optional.of(new OutboxBatch(endpoint, entries, Math.toIntExact((Long) claimed.get(0))));
    }

    @Override
    public boolean renew(String endpoint, String holder, Duration lease) throws IOException {
        return call("renew the claim on " + endpoint, () -> RENEW.returnsTrue(redis,
                new String[] {key(endpoint, "state")}, holder, Long.toString(lease.toMillis())));
    }

    @Override
    public void delivered(OutboxBatch batch, String holder) throws IOException {
        call("remove delivered notifications of " + batch.endpoint(), () -> DELIVERED.run(redis, ScriptOutputType.INTEGER,
                new String[] {key(batch.endpoint(), "events"), key(batch.endpoint(), "state")}, holder,
                Long.toString(batch.lastSequence())));
    }

    @Override
    public void failed(String endpoint, String holder, Duration retryIn) throws IOException {
        call("back off from " + endpoint, () -> FAILED.run(redis, ScriptOutputType.INTEGER,
                new String[] {key(endpoint, "state")}, holder, Long.toString(retryIn.toMillis())));
    }

    @Override
    public long depth(String endpoint) throws IOException {
        return call("count the notifications for " + endpoint, () -> redis.llen(key(endpoint, "events")));
    }
}
