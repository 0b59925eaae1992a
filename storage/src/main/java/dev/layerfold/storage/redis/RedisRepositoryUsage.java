package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.Usage;
import dev.layerfold.storage.usage.UsageOrder;
import dev.layerfold.storage.usage.UsageTotals;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-repository accounting in Redis, under one hash tag so that each change is one Lua script on
 * one master. Keys, after {@code <namespace>:{#usage}:}:
 * <ul>
 *   <li>{@code repos}: hash of repository to {@code "logical exclusive stored freed pushes pulls"}, and a
 *       sorted set per order ({@code by-stored}, {@code by-logical}, {@code by-freed}, {@code by-pulls},
 *       {@code names} all scored 0 for lexical order) for pages;</li>
 *   <li>{@code blobs}: hash of blob to {@code "size stored"} (size -1 while no repository held it);
 *       {@code holders}: hash of blob to the repositories holding it, one a line;
 *       {@code holdings}: hash of {@code repository\nblob} to how many of its manifests name it;</li>
 *   <li>{@code manifests}: hash of {@code repository\nmanifest} to the blobs it named;</li>
 *   <li>{@code totals}: hash of the registry's figures; {@code complete}: the servers' fingerprint the
 *       figures are complete on ({@link ServerFingerprint}), so a Redis that lost them is rebuilt.</li>
 * </ul>
 * Lost with Redis and rebuilt from the manifests in the bucket, except pushes and pulls, which start
 * again from the rebuild, and the stored bytes of deduplicated layers (see {@code UsageRebuild}).
 */
final class RedisRepositoryUsage implements RepositoryUsage {

    private static final String PRELUDE = """
            local function load(repo)
              local v = redis.call('hget', KEYS[1], repo)
              if not v then return {0, 0, 0, 0, 0, 0} end
              local r = {}
              for n in string.gmatch(v, '%S+') do r[#r + 1] = tonumber(n) end
              return r
            end
            local function save(repo, r)
              if redis.call('hexists', KEYS[1], repo) == 0 then redis.call('hincrby', KEYS[10], 'repositories', 1) end
              redis.call('hset', KEYS[1], repo, string.format('%d %d %d %d %d %d', r[1], r[2], r[3], r[4], r[5], r[6]))
              redis.call('zadd', KEYS[2], r[3], repo)
              redis.call('zadd', KEYS[3], r[1], repo)
              redis.call('zadd', KEYS[4], r[4], repo)
              redis.call('zadd', KEYS[5], r[6], repo)
              redis.call('zadd', KEYS[6], 0, repo)
            end
            local function add(repo, i, delta)
              local r = load(repo)
              r[i] = r[i] + delta
              save(repo, r)
            end
            local function holders(blob)
              local v = redis.call('hget', KEYS[8], blob)
              local list = {}
              if v then for n in string.gmatch(v, '[^\\n]+') do list[#list + 1] = n end end
              return list
            end
            local function sizes(blob)
              local v = redis.call('hget', KEYS[7], blob)
              if not v then return nil end
              local size, stored = string.match(v, '^(%S+) (%S+)$')
              return {tonumber(size), tonumber(stored)}
            end
            local function total(field, delta)
              if delta ~= 0 then redis.call('hincrby', KEYS[10], field, delta) end
            end
            """;

    /** KEYS: see {@link #keys()}. ARGV: repository, manifest, then each blob and its size. */
    private static final RedisScript REFERENCED = new RedisScript(PRELUDE + """
            local repo = ARGV[1]
            local holder = repo .. '\\n' .. ARGV[2]
            if redis.call('hexists', KEYS[11], holder) == 1 then return 0 end
            local names = {}
            add(repo, 5, 1)
            for i = 3, #ARGV, 2 do
              local blob, size = ARGV[i], tonumber(ARGV[i + 1])
              names[#names + 1] = blob
              if redis.call('hincrby', KEYS[9], repo .. '\\n' .. blob, 1) == 1 then
                local s = sizes(blob)
                if not s then s = {size, size} elseif s[1] < 0 then s[1] = size end
                redis.call('hset', KEYS[7], blob, s[1] .. ' ' .. s[2])
                local before = holders(blob)
                local list = repo
                for _, h in ipairs(before) do list = list .. '\\n' .. h end
                redis.call('hset', KEYS[8], blob, list)
                local r = load(repo)
                r[1] = r[1] + s[1]
                r[3] = r[3] + s[2]
                if #before == 0 then
                  r[2] = r[2] + s[1]
                  r[4] = r[4] + s[2]
                  total('logical', s[1])
                  total('stored', s[2])
                elseif #before == 1 then
                  local o = load(before[1])
                  o[2] = o[2] - s[1]
                  o[4] = o[4] - s[2]
                  save(before[1], o)
                  total('shared-logical', s[1])
                  total('shared-stored', s[2])
                end
                save(repo, r)
              end
            end
            redis.call('hset', KEYS[11], holder, table.concat(names, ' '))
            return 1""");

    /** KEYS: see {@link #keys()}. ARGV: repository, manifest. */
    private static final RedisScript UNREFERENCED = new RedisScript(PRELUDE + """
            local repo = ARGV[1]
            local holder = repo .. '\\n' .. ARGV[2]
            local named = redis.call('hget', KEYS[11], holder)
            if not named then return 0 end
            redis.call('hdel', KEYS[11], holder)
            for blob in string.gmatch(named, '%S+') do
              local holding = repo .. '\\n' .. blob
              local left = redis.call('hincrby', KEYS[9], holding, -1)
              if left <= 0 then
                redis.call('hdel', KEYS[9], holding)
                local s = sizes(blob) or {0, 0}
                if s[1] < 0 then s[1] = 0 end
                local after = {}
                for _, h in ipairs(holders(blob)) do if h ~= repo then after[#after + 1] = h end end
                if #after == 0 then redis.call('hdel', KEYS[8], blob) else redis.call('hset', KEYS[8], blob, table.concat(after, '\\n')) end
                local r = load(repo)
                r[1] = r[1] - s[1]
                r[3] = r[3] - s[2]
                if #after == 0 then
                  r[2] = r[2] - s[1]
                  r[4] = r[4] - s[2]
                  total('logical', -s[1])
                  total('stored', -s[2])
                elseif #after == 1 then
                  local o = load(after[1])
                  o[2] = o[2] + s[1]
                  o[4] = o[4] + s[2]
                  save(after[1], o)
                  total('shared-logical', -s[1])
                  total('shared-stored', -s[2])
                end
                save(repo, r)
              end
            end
            return 1""");

    /** KEYS: see {@link #keys()}. ARGV: blob, stored bytes. */
    private static final RedisScript STORED = new RedisScript(PRELUDE + """
            local blob, stored = ARGV[1], tonumber(ARGV[2])
            local s = sizes(blob)
            redis.call('hset', KEYS[7], blob, (s and s[1] or -1) .. ' ' .. stored)
            if not s or s[2] == stored then return 0 end
            local delta = stored - s[2]
            local list = holders(blob)
            for _, h in ipairs(list) do
              local r = load(h)
              r[3] = r[3] + delta
              if #list == 1 then r[4] = r[4] + delta end
              save(h, r)
            end
            if #list > 0 then total('stored', delta) end
            if #list > 1 then total('shared-stored', delta) end
            return 1""");

    /** KEYS: see {@link #keys()}. ARGV: each repository and its new pulls. */
    private static final RedisScript PULLED = new RedisScript(PRELUDE + """
            for i = 1, #ARGV, 2 do add(ARGV[i], 6, tonumber(ARGV[i + 1])) end
            return 1""");

    private final RedisClusterCommands<String, String> redis;
    private final String prefix;
    private final ServerFingerprint servers;

    RedisRepositoryUsage(RedisClusterCommands<String, String> redis, IndexKeys keys, ServerFingerprint servers) {
        this.redis = redis;
        this.prefix = keys.namespace() + ":{#usage}:";
        this.servers = servers;
    }

    private String[] keys() {
        return new String[] {prefix + "repos", order(UsageOrder.STORED), order(UsageOrder.LOGICAL), order(UsageOrder.FREED),
                order(UsageOrder.PULLS), order(UsageOrder.NAME), prefix + "blobs", prefix + "holders", prefix + "holdings",
                prefix + "totals", prefix + "manifests"};
    }

    private String order(UsageOrder order) {
        return prefix + switch (order) {
            case STORED -> "by-stored";
            case LOGICAL -> "by-logical";
            case FREED -> "by-freed";
            case PULLS -> "by-pulls";
            case NAME -> "names";
        };
    }

    @Override
    public void referenced(RepositoryName repository, Digest manifest, Map<Digest, Long> blobs) throws IOException {
        List<String> args = new ArrayList<>(List.of(repository.value(), manifest.toString()));
        blobs.forEach((blob, size) -> {
            args.add(blob.toString());
            args.add(Long.toString(size));
        });
        call("account for " + manifest + " in " + repository,
                () -> REFERENCED.run(redis, ScriptOutputType.INTEGER, keys(), args.toArray(String[]::new)));
    }

    @Override
    public void unreferenced(RepositoryName repository, Digest manifest) throws IOException {
        call("stop accounting for " + manifest + " in " + repository,
                () -> UNREFERENCED.run(redis, ScriptOutputType.INTEGER, keys(), repository.value(), manifest.toString()));
    }

    @Override
    public void stored(Digest blob, long storedBytes) throws IOException {
        call("account for the stored bytes of " + blob,
                () -> STORED.run(redis, ScriptOutputType.INTEGER, keys(), blob.toString(), Long.toString(storedBytes)));
    }

    @Override
    public void pulled(Map<RepositoryName, Long> pulls) throws IOException {
        if (pulls.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>();
        pulls.forEach((repository, count) -> {
            args.add(repository.value());
            args.add(Long.toString(count));
        });
        call("count pulls", () -> PULLED.run(redis, ScriptOutputType.INTEGER, keys(), args.toArray(String[]::new)));
    }

    @Override
    public Optional<Usage> usage(RepositoryName repository) throws IOException {
        String value = call("read the figures of " + repository, () -> redis.hget(prefix + "repos", repository.value()));
        return Optional.ofNullable(value).map(v -> usage(repository.value(), v));
    }

    @Override
    public List<Usage> page(UsageOrder order, int offset, int limit) throws IOException {
        if (limit <= 0) {
            return List.of();
        }
        List<String> names = call("read a page of repository figures", () -> order == UsageOrder.NAME
                ? redis.zrange(order(order), offset, offset + limit - 1L)
                : redis.zrevrange(order(order), offset, offset + limit - 1L));
        if (names.isEmpty()) {
            return List.of();
        }
        var values = call("read repository figures", () -> redis.hmget(prefix + "repos", names.toArray(String[]::new)));
        List<Usage> page = new ArrayList<>();
        for (var value : values) {
            if (value.hasValue()) {
                page.add(usage(value.getKey(), value.getValue()));
            }
        }
        return page;
    }

    @Override
    public UsageTotals totals() throws IOException {
        Map<String, String> totals = call("read the usage totals", () -> redis.hgetall(prefix + "totals"));
        return new UsageTotals(field(totals, "logical"), field(totals, "stored"), field(totals, "shared-logical"),
                field(totals, "shared-stored"), field(totals, "repositories"));
    }

    @Override
    public boolean complete() throws IOException {
        String marker = call("read the usage marker", () -> redis.get(prefix + "complete"));
        return marker != null && marker.equals(servers.current());
    }

    @Override
    public void clear() throws IOException {
        List<String> all = new ArrayList<>(List.of(keys()));
        all.add(prefix + "complete");
        call("clear the usage figures", () -> redis.del(all.toArray(String[]::new)));
    }

    @Override
    public void markComplete() throws IOException {
        String fingerprint = servers.refresh();
        call("mark the usage figures complete", () -> redis.set(prefix + "complete", fingerprint));
    }

    private static long field(Map<String, String> hash, String name) {
        String value = hash.get(name);
        return value == null ? 0 : Long.parseLong(value);
    }

    private static Usage usage(String repository, String value) {
        String[] f = value.split(" ");
        return new Usage(RepositoryName.of(repository), Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]));
    }
}
