package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.predictor.ImageRef;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import dev.layerfold.storage.predictor.UserHistory;
import dev.layerfold.storage.predictor.UserHistory.LayerPulls;
import dev.layerfold.storage.predictor.UserHistory.RepullCounts;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ULmap in Redis: per user a hash of pull counts, a sorted set of last pull times and a hash of repull
 * counters, changed together by Lua scripts (one hash tag per user, see {@link PredictorKeys}), so
 * concurrent pulls never lose a count; an image's counters are a hash changed by HINCRBY. Every key
 * expires after {@link PullHistoryLimits#forgetAfter()} without a write, which bounds the map without
 * a sweep; the scripts also drop layers not pulled for that long and beyond the per-user limit.
 */
final class RedisPullHistory implements PullHistory {

    /** Drops the user's stats when last seen before the cutoff. KEYS[3]: stats. ARGV[3]: cutoff. */
    private static final String FORGET_IF_IDLE = """
            local seen = redis.call('hget', KEYS[3], 'seen')
            if seen and tonumber(seen) < tonumber(ARGV[3]) then
              redis.call('del', KEYS[3])
            end
            """;

    /** Halves a hash's counters once its offers reach ARGV[decay]. */
    private static final String DECAY = """
            local function decay(key, offered, at)
              if offered >= at then
                local repulled = tonumber(redis.call('hget', key, 'repulled') or '0')
                redis.call('hset', key, 'offered', math.floor(offered / 2), 'repulled', math.floor(repulled / 2))
              end
            end
            """;

    /**
     * KEYS: counts, times, stats. ARGV: layer, now, cutoff, layers per user, time to live.
     * Returns the count before, and the user's last image (repository, manifest) if this was a repull.
     */
    private static final RedisScript PULLED = new RedisScript(FORGET_IF_IDLE + """
            local expired = redis.call('zrangebyscore', KEYS[2], '-inf', '(' .. ARGV[3])
            for _, layer in ipairs(expired) do
              redis.call('hdel', KEYS[1], layer)
            end
            redis.call('zremrangebyscore', KEYS[2], '-inf', '(' .. ARGV[3])
            local count = redis.call('hincrby', KEYS[1], ARGV[1], 1)
            redis.call('zadd', KEYS[2], ARGV[2], ARGV[1])
            local extra = redis.call('zcard', KEYS[2]) - tonumber(ARGV[4])
            if extra > 0 then
              for _, layer in ipairs(redis.call('zrange', KEYS[2], 0, extra - 1)) do
                redis.call('hdel', KEYS[1], layer)
              end
              redis.call('zremrangebyrank', KEYS[2], 0, extra - 1)
            end
            local repository, manifest = '', ''
            if count > 1 then
              redis.call('hincrby', KEYS[3], 'repulled', 1)
              repository = redis.call('hget', KEYS[3], 'repository') or ''
              manifest = redis.call('hget', KEYS[3], 'manifest') or ''
            end
            redis.call('hset', KEYS[3], 'seen', ARGV[2])
            for i = 1, 3 do
              redis.call('pexpire', KEYS[i], ARGV[5])
            end
            return {count - 1, repository, manifest}""");

    /** KEYS: stats. ARGV: held, repository, manifest, platform, now, cutoff, decay at, time to live. */
    private static final RedisScript OFFERED = new RedisScript(DECAY + """
            local seen = redis.call('hget', KEYS[1], 'seen')
            if seen and tonumber(seen) < tonumber(ARGV[6]) then
              redis.call('del', KEYS[1])
            end
            local offered = redis.call('hincrby', KEYS[1], 'offered', ARGV[1])
            redis.call('hset', KEYS[1], 'repository', ARGV[2], 'manifest', ARGV[3], 'seen', ARGV[5])
            if ARGV[4] ~= '' then
              redis.call('hset', KEYS[1], 'platform', ARGV[4])
            end
            decay(KEYS[1], offered, tonumber(ARGV[7]))
            redis.call('pexpire', KEYS[1], ARGV[8])
            return 1""");

    /** KEYS: an image's repulls. ARGV: held, decay at, time to live. */
    private static final RedisScript IMAGE_OFFERED = new RedisScript(DECAY + """
            decay(KEYS[1], redis.call('hincrby', KEYS[1], 'offered', ARGV[1]), tonumber(ARGV[2]))
            redis.call('pexpire', KEYS[1], ARGV[3])
            return 1""");

    /**
     * KEYS: counts, times, stats. ARGV: cutoff, then the layers. Returns the stats hash (flat), then per
     * layer its count and last time (empty strings if not held or forgotten).
     */
    private static final RedisScript READ = new RedisScript("""
            local stats = redis.call('hgetall', KEYS[3])
            local seen
            for i = 1, #stats, 2 do
              if stats[i] == 'seen' then seen = tonumber(stats[i + 1]) end
            end
            if seen and seen < tonumber(ARGV[1]) then
              stats = {}
            end
            local layers = {}
            for i = 2, #ARGV do
              local time = redis.call('zscore', KEYS[2], ARGV[i])
              local count = redis.call('hget', KEYS[1], ARGV[i])
              if time and count and tonumber(time) >= tonumber(ARGV[1]) then
                table.insert(layers, count)
                table.insert(layers, time)
              else
                table.insert(layers, '')
                table.insert(layers, '')
              end
            end
            return {stats, layers}""");

    private final RedisClusterCommands<String, String> redis;
    private final PredictorKeys keys;
    private final PullHistoryLimits limits;

    RedisPullHistory(RedisClusterCommands<String, String> redis, PredictorKeys keys, PullHistoryLimits limits) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
    }

    private String[] userKeys(String user) {
        return new String[] {keys.layerCounts(user), keys.layerTimes(user), keys.userStats(user)};
    }

    private String cutoff(Instant now) {
        return Long.toString(now.toEpochMilli() - limits.forgetAfter().toMillis());
    }

    private String ttl() {
        return Long.toString(limits.forgetAfter().toMillis());
    }

    @Override
    public UserHistory read(String user, ImageRef image, Collection<Digest> layers, Instant now) throws IOException {
        List<Digest> asked = List.copyOf(layers);
        List<String> args = new ArrayList<>();
        args.add(cutoff(now));
        asked.forEach(layer -> args.add(PredictorKeys.field(layer)));
        List<Object> result = call("read the pull history of a user", () -> READ.run(redis, ScriptOutputType.MULTI,
                userKeys(user), args.toArray(String[]::new)));
        Map<String, String> stats = pairs((List<?>) result.get(0));
        List<?> perLayer = (List<?>) result.get(1);
        Map<Digest, LayerPulls> pulls = new HashMap<>();
        for (int i = 0; i < asked.size(); i++) {
            String count = (String) perLayer.get(2 * i);
            if (!count.isEmpty()) {
                pulls.put(asked.get(i), new LayerPulls(Long.parseLong(count), (long) Double.parseDouble((String) perLayer.get(2 * i + 1))));
            }
        }
        Map<String, String> imageStats = call("read the repull counts of " + image, () -> redis.hgetall(keys.imageRepulls(image)));
        Optional<ImageRef> lastImage = stats.containsKey("repository")
                ? Optional.of(new ImageRef(RepositoryName.of(stats.get("repository")), Digest.parse(stats.get("manifest"))))
                : Optional.empty();
        return new UserHistory(pulls, counts(stats), counts(imageStats), lastImage, stats.getOrDefault("platform", ""));
    }

    private static Map<String, String> pairs(List<?> flat) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put((String) flat.get(i), (String) flat.get(i + 1));
        }
        return map;
    }

    private static RepullCounts counts(Map<String, String> hash) {
        return new RepullCounts(Long.parseLong(hash.getOrDefault("offered", "0")),
                Long.parseLong(hash.getOrDefault("repulled", "0")));
    }

    @Override
    public void offered(String user, ImageRef image, int heldLayers, String platform, Instant now) throws IOException {
        String decayAt = Long.toString(limits.decayAt());
        call("count an offer to repull", () -> OFFERED.run(redis, ScriptOutputType.INTEGER,
                new String[] {keys.userStats(user)}, Integer.toString(heldLayers), image.repository().value(),
                image.manifest().toString(), platform, Long.toString(now.toEpochMilli()), cutoff(now), decayAt, ttl()));
        call("count an offer to repull " + image, () -> IMAGE_OFFERED.run(redis, ScriptOutputType.INTEGER,
                new String[] {keys.imageRepulls(image)}, Integer.toString(heldLayers), decayAt, ttl()));
    }

    @Override
    public long pulled(String user, Digest layer, Instant now) throws IOException {
        List<Object> result = call("count a pull of " + layer, () -> PULLED.run(redis, ScriptOutputType.MULTI,
                userKeys(user), PredictorKeys.field(layer), Long.toString(now.toEpochMilli()), cutoff(now),
                Integer.toString(limits.layersPerUser()), ttl()));
        long before = (Long) result.get(0);
        String repository = (String) result.get(1);
        if (before > 0 && !repository.isEmpty()) {
            // Another slot than the user's keys: a command of its own, atomic by itself.
            ImageRef last = new ImageRef(RepositoryName.of(repository), Digest.parse((String) result.get(2)));
            call("count a repull of " + last, () -> {
                redis.hincrby(keys.imageRepulls(last), "repulled", 1);
                return redis.pexpire(keys.imageRepulls(last), limits.forgetAfter().toMillis());
            });
        }
        return before;
    }

    /** Keys expire by themselves, and every read and update ignores what is older than the cutoff. */
    @Override
    public void forgetIdle(Instant now) {
    }
}
