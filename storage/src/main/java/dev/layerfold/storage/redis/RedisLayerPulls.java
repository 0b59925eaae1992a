package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pull counts in one Redis hash, layer digest to {@code <pulls> <at> <last pull>}, decayed and added by
 * a script on the Redis clock so that concurrent batches from many processes add up. The counts are
 * soft state: a Redis that loses them only makes layers look cold until they are pulled again, so they
 * are not kept in the bucket.
 */
final class RedisLayerPulls implements LayerPulls {

    /** KEYS: the pulls hash. ARGV: half-life in milliseconds, then each layer and its new pulls. */
    private static final RedisScript RECORD = new RedisScript("""
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            for i = 2, #ARGV, 2 do
              local pulls = 0
              local old = redis.call('hget', KEYS[1], ARGV[i])
              if old then
                local p, at = string.match(old, '^(%S+) (%d+) %d+$')
                pulls = tonumber(p) * math.pow(0.5, math.max(0, now - tonumber(at)) / tonumber(ARGV[1]))
              end
              pulls = pulls + tonumber(ARGV[i + 1])
              redis.call('hset', KEYS[1], ARGV[i], string.format('%.6f %d %d', pulls, now, now))
            end
            return 1""");

    /** KEYS: the pulls hash. ARGV: cutoff in milliseconds, then the layers. */
    private static final RedisScript FORGET = new RedisScript("""
            for i = 2, #ARGV do
              local old = redis.call('hget', KEYS[1], ARGV[i])
              if old and tonumber(string.match(old, '(%d+)$')) < tonumber(ARGV[1]) then
                redis.call('hdel', KEYS[1], ARGV[i])
              end
            end
            return 1""");

    /** Layers per script: a script blocks all of Redis while it runs. */
    private static final int LAYERS_PER_BATCH = 500;

    private final RedisClusterCommands<String, String> redis;
    private final DedupKeys keys;

    RedisLayerPulls(RedisClusterCommands<String, String> redis, DedupKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    @Override
    public void record(Map<Digest, Long> pulls) throws IOException {
        List<Map.Entry<Digest, Long>> entries = List.copyOf(pulls.entrySet());
        for (int from = 0; from < entries.size(); from += LAYERS_PER_BATCH) {
            List<String> args = new ArrayList<>();
            args.add(Long.toString(HALF_LIFE.toMillis()));
            for (Map.Entry<Digest, Long> pull : entries.subList(from, Math.min(entries.size(), from + LAYERS_PER_BATCH))) {
                args.add(pull.getKey().toString());
                args.add(Long.toString(pull.getValue()));
            }
            call("record pulls", () -> RECORD.run(redis, ScriptOutputType.INTEGER, new String[] {keys.pulls()},
                    args.toArray(String[]::new)));
        }
    }

    @Override
    public Optional<LayerHeat> heat(Digest layer) throws IOException {
        return Optional.ofNullable(call("read the pulls of " + layer, () -> redis.hget(keys.pulls(), layer.toString())))
                .map(RedisLayerPulls::decode);
    }

    @Override
    public Map<Digest, LayerHeat> all() throws IOException {
        Map<Digest, LayerHeat> all = new LinkedHashMap<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor from = cursor;
            MapScanCursor<String, String> page = call("list pull counts",
                    () -> redis.hscan(keys.pulls(), from, ScanArgs.Builder.limit(1000)));
            page.getMap().forEach((layer, heat) -> all.put(Digest.parse(layer), decode(heat)));
            cursor = page;
        } while (!cursor.isFinished());
        return all;
    }

    @Override
    public long nowMillis() throws IOException {
        List<String> time = call("read the Redis clock", redis::time);
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Override
    public void forget(Collection<Digest> layers, long pulledBeforeMillis) throws IOException {
        List<Digest> all = List.copyOf(layers);
        for (int from = 0; from < all.size(); from += LAYERS_PER_BATCH) {
            List<String> args = new ArrayList<>();
            args.add(Long.toString(pulledBeforeMillis));
            all.subList(from, Math.min(all.size(), from + LAYERS_PER_BATCH)).forEach(layer -> args.add(layer.toString()));
            call("forget pull counts", () -> FORGET.run(redis, ScriptOutputType.INTEGER, new String[] {keys.pulls()},
                    args.toArray(String[]::new)));
        }
    }

    private static LayerHeat decode(String stored) {
        String[] fields = stored.split(" ");
        return new LayerHeat(Double.parseDouble(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
    }
}
