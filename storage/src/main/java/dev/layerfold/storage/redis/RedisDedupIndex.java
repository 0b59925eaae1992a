package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.dedup.FileClaim;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerRecordFiles;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.PackCondemnedException;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.dedup.PackUse;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.s3.S3Bucket;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The dedup index in Redis, every key under one hash tag ({@link DedupKeys}) so that each operation
 * is one Lua script, atomic on Redis Cluster too; a layer's files travel as the script's arguments,
 * one round trip however many there are.
 * <ul>
 *   <li>{@code files}: file digest to {@code <pack> <offset> <length> <size> <stored at>} (Redis clock,
 *       milliseconds, for {@link #forgetUnreferenced});</li>
 *   <li>{@code references}: file digest to its count, absent for none;</li>
 *   <li>{@code unreferenced}: sorted set of the files with no count, by when they were stored, so the
 *       collector finds them without a scan ({@link #unreferencedFiles});</li>
 *   <li>{@code layers}: layer digest to its state, as in its bucket record ({@link DedupLayerRecords});</li>
 *   <li>{@code packs}: pack digest to its size, each pack counted once into the stored bytes;</li>
 *   <li>{@code pack-dead}, {@code retired-packs}, {@code condemned-packs}: per pack, the bytes of files
 *       forgotten from it, when a rewrite retired it, when the collector marked it for deletion; soft
 *       state, not rebuilt (a retired pack Redis forgot is an orphan, which the collector's sweep takes);
 *       where the files of a rewritten pack went is in the bucket ({@link PackMoves}), written first;</li>
 *   <li>{@code totals} and {@code intact}: running sums kept by the same scripts, so the totals cost
 *       one read rather than a scan;</li>
 *   <li>a key per claimed file, {@code SET ... PX} so a crashed worker's claims expire by themselves.</li>
 * </ul>
 *
 * <p><b>The bucket is the system of record.</b> Layer states are written to the bucket first, under
 * the layer record's lock ({@link RecordLocks}), then to Redis; releasing deletes the record first.
 * Every script first checks the index's marker against the servers' fingerprint: if Redis lost the
 * index (or may have), the script changes nothing and the caller waits for {@link DedupIndexRebuild}
 * to restore it from the bucket, then runs the script again.
 */
final class RedisDedupIndex implements DedupIndex {

    private static final String STALE = "stale";
    private static final String DEDUPLICATED = "'deduplicated '";

    /** Every script starts with it: KEYS[1] is the marker, ARGV[1] the fingerprint ('' while rebuilding). */
    private static final String CHECK_MARKER = """
            if ARGV[1] ~= '' and redis.call('get', KEYS[1]) ~= ARGV[1] then
              return {'stale'}
            end
            """;

    /** KEYS: marker, files. ARGV: fingerprint, file. */
    private static final RedisScript FILE = new RedisScript(CHECK_MARKER + """
            return {'ok', redis.call('hget', KEYS[2], ARGV[2])}""");

    /** KEYS: marker, files. ARGV: fingerprint, the files. Answers each file's location or false. */
    private static final RedisScript FILES = new RedisScript(CHECK_MARKER + """
            local answers = redis.call('hmget', KEYS[2], unpack(ARGV, 2))
            table.insert(answers, 1, 'ok')
            return answers""");

    /** KEYS: marker, files, the claim of each file. ARGV: fingerprint, worker, ttl in milliseconds, the files. */
    private static final RedisScript CLAIM = new RedisScript(CHECK_MARKER + """
            local answers = {'ok'}
            for i = 4, #ARGV do
              local location = redis.call('hget', KEYS[2], ARGV[i])
              if location then
                answers[#answers + 1] = location
              else
                local holder = redis.call('get', KEYS[i - 1])
                if not holder or holder == ARGV[2] then
                  redis.call('set', KEYS[i - 1], ARGV[2], 'PX', ARGV[3])
                  answers[#answers + 1] = 'claimed'
                else
                  answers[#answers + 1] = 'busy'
                end
              end
            end
            return answers""");

    /** Sets {@code now}, the Redis clock in milliseconds. */
    private static final String NOW = """
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """;

    /**
     * KEYS: marker, files, packs, totals, condemned packs, retired packs, pack generations, unreferenced, the claim of each file. ARGV:
     * fingerprint, pack, pack size, condemnation lifetime in milliseconds, then each file and its location.
     */
    private static final RedisScript PACK_STORED = new RedisScript(CHECK_MARKER + NOW + """
            local mark = redis.call('hget', KEYS[5], ARGV[2])
            if mark and tonumber(mark) > now - tonumber(ARGV[4]) then
              return {'condemned'}
            end
            redis.call('hdel', KEYS[6], ARGV[2])
            redis.call('hincrby', KEYS[7], ARGV[2], 1)
            if redis.call('hsetnx', KEYS[3], ARGV[2], ARGV[3]) == 1 then
              redis.call('hincrby', KEYS[4], 'stored', ARGV[3])
            end
            for i = 5, #ARGV, 2 do
              if redis.call('hsetnx', KEYS[2], ARGV[i], ARGV[i + 1] .. ' ' .. now) == 1 then
                redis.call('zadd', KEYS[8], now, ARGV[i])
              end
              redis.call('del', KEYS[6 + (i + 1) / 2])
            end
            return {'ok'}""");

    /**
     * KEYS: marker, packs, pack dead bytes, pack generations. ARGV: fingerprint, live share, limit. Answers
     * pack, size, dead bytes, generation for each.
     */
    private static final RedisScript SPARSE_PACKS = new RedisScript(CHECK_MARKER + """
            local dead = redis.call('hgetall', KEYS[3])
            local sparse = {}
            for i = 1, #dead, 2 do
              local size = tonumber(redis.call('hget', KEYS[2], dead[i]) or '-1')
              local live = size - tonumber(dead[i + 1])
              if size >= 0 and live < tonumber(ARGV[2]) * size then
                sparse[#sparse + 1] = {dead[i], size, tonumber(dead[i + 1]), live}
              end
            end
            table.sort(sparse, function(a, b) return a[4] < b[4] end)
            local answer = {'ok'}
            for i = 1, math.min(#sparse, tonumber(ARGV[3])) do
              answer[#answer + 1] = sparse[i][1]
              answer[#answer + 1] = sparse[i][2]
              answer[#answer + 1] = sparse[i][3]
              answer[#answer + 1] = tonumber(redis.call('hget', KEYS[4], sparse[i][1]) or '0')
            end
            return answer""");

    /**
     * KEYS: marker, files, packs, pack dead bytes, totals, retired packs, pack generations. ARGV: fingerprint,
     * from, from's generation, to ('' for none), to's size, then for each moved file: the file, its offset in
     * from, its location in to.
     */
    private static final RedisScript RELOCATE = new RedisScript(CHECK_MARKER + NOW + """
            local fromSize = redis.call('hget', KEYS[3], ARGV[2])
            if not fromSize or (redis.call('hget', KEYS[7], ARGV[2]) or '0') ~= ARGV[3] then
              return {'ok', 0}
            end
            local live = 0
            for i = 6, #ARGV, 3 do
              local location = redis.call('hget', KEYS[2], ARGV[i])
              if location then
                local pack, offset, storedAt = string.match(location, '^(%S+) (%d+) %d+ %d+ (%d+)$')
                if pack == ARGV[2] and offset == ARGV[i + 1] then
                  redis.call('hset', KEYS[2], ARGV[i], ARGV[i + 2] .. ' ' .. storedAt)
                  live = live + tonumber(string.match(ARGV[i + 2], '^%S+ %d+ (%d+)'))
                end
              end
            end
            redis.call('hdel', KEYS[3], ARGV[2])
            redis.call('hdel', KEYS[4], ARGV[2])
            redis.call('hincrby', KEYS[5], 'stored', 0 - tonumber(fromSize))
            if ARGV[4] ~= '' then
              redis.call('hdel', KEYS[6], ARGV[4])
              if redis.call('hsetnx', KEYS[3], ARGV[4], ARGV[5]) == 1 then
                redis.call('hincrby', KEYS[5], 'stored', ARGV[5])
                redis.call('hincrby', KEYS[7], ARGV[4], 1)
                if tonumber(ARGV[5]) > live then
                  redis.call('hset', KEYS[4], ARGV[4], tonumber(ARGV[5]) - live)
                end
              end
            end
            redis.call('hset', KEYS[6], ARGV[2], now)
            return {'ok', 1}""");

    /** KEYS: marker, retired packs. ARGV: fingerprint, retired before, limit. */
    private static final RedisScript RETIRED_PACKS = new RedisScript(CHECK_MARKER + """
            local retired = redis.call('hgetall', KEYS[2])
            local old = {}
            for i = 1, #retired, 2 do
              if tonumber(retired[i + 1]) < tonumber(ARGV[2]) then
                old[#old + 1] = {retired[i], tonumber(retired[i + 1])}
              end
            end
            table.sort(old, function(a, b) return a[2] < b[2] end)
            local answer = {'ok'}
            for i = 1, math.min(#old, tonumber(ARGV[3])) do
              answer[#answer + 1] = old[i][1]
            end
            return answer""");

    /**
     * KEYS: marker, packs, condemned packs, retired packs. ARGV: fingerprint, pack, condemnation lifetime in
     * milliseconds, retired before.
     */
    private static final RedisScript CONDEMN_PACK = new RedisScript(CHECK_MARKER + NOW + """
            local mark = redis.call('hget', KEYS[3], ARGV[2])
            local retired = redis.call('hget', KEYS[4], ARGV[2])
            if redis.call('hexists', KEYS[2], ARGV[2]) == 1 or (mark and tonumber(mark) > now - tonumber(ARGV[3]))
                or (retired and tonumber(retired) >= tonumber(ARGV[4])) then
              return {'ok', 0}
            end
            redis.call('hset', KEYS[3], ARGV[2], now)
            return {'ok', 1}""");

    /** KEYS: marker, condemned packs, retired packs, pack generations. ARGV: fingerprint, pack. */
    private static final RedisScript BURY_PACK = new RedisScript(CHECK_MARKER + """
            redis.call('hdel', KEYS[2], ARGV[2])
            redis.call('hdel', KEYS[3], ARGV[2])
            redis.call('hdel', KEYS[4], ARGV[2])
            return {'ok'}""");

    /** KEYS: marker, layers. ARGV: fingerprint, layer. */
    private static final RedisScript LAYER = new RedisScript(CHECK_MARKER + """
            return {'ok', redis.call('hget', KEYS[2], ARGV[2])}""");

    /** Takes a layer's former intact state out of the counts by reason. KEYS[3]: intact counts. */
    private static final String FORGET_INTACT = """
            local function forgetIntact(prior)
              local reason = string.sub(prior, 8)
              if redis.call('hincrby', KEYS[3], reason, -1) <= 0 then
                redis.call('hdel', KEYS[3], reason)
              end
            end
            """;

    /** KEYS: marker, layers, intact counts. ARGV: fingerprint, layer, state, reason. */
    private static final RedisScript KEEP_INTACT = new RedisScript(CHECK_MARKER + FORGET_INTACT + """
            local prior = redis.call('hget', KEYS[2], ARGV[2])
            if prior == ARGV[3] or (prior and string.sub(prior, 1, 13) == %s) then
              return {'ok', 0}
            end
            if prior then
              forgetIntact(prior)
            end
            redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
            redis.call('hincrby', KEYS[3], ARGV[4], 1)
            return {'ok', 1}""".formatted(DEDUPLICATED));

    /**
     * KEYS: marker, layers, intact counts, files, references, totals, unreferenced.
     * ARGV: fingerprint, layer, state, logical size, record size, file count, the distinct files.
     */
    private static final RedisScript COMMIT = new RedisScript(CHECK_MARKER + FORGET_INTACT + """
            local prior = redis.call('hget', KEYS[2], ARGV[2])
            if prior and string.sub(prior, 1, 13) == %s then
              return {'ok', 1}
            end
            for i = 7, #ARGV do
              if redis.call('hexists', KEYS[4], ARGV[i]) == 0 then
                return {'ok', 0}
              end
            end
            for i = 7, #ARGV do
              redis.call('hincrby', KEYS[5], ARGV[i], 1)
              redis.call('zrem', KEYS[7], ARGV[i])
            end
            if prior then
              forgetIntact(prior)
            end
            redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
            redis.call('hincrby', KEYS[6], 'layers', 1)
            redis.call('hincrby', KEYS[6], 'logical', ARGV[4])
            redis.call('hincrby', KEYS[6], 'stored', ARGV[5])
            redis.call('hincrby', KEYS[6], 'references', ARGV[6])
            return {'ok', 1}""".formatted(DEDUPLICATED));

    /** KEYS: marker, layers, references, totals, files, unreferenced. ARGV: fingerprint, layer, the distinct files. */
    private static final RedisScript RELEASE = new RedisScript(CHECK_MARKER + """
            local prior = redis.call('hget', KEYS[2], ARGV[2])
            if not prior or string.sub(prior, 1, 13) ~= %s then
              return {'ok', 0}
            end
            local logical, stored, files = string.match(prior, '^deduplicated %%S+ (%%d+) (%%d+) (%%d+)$')
            for i = 3, #ARGV do
              if redis.call('hincrby', KEYS[3], ARGV[i], -1) <= 0 then
                redis.call('hdel', KEYS[3], ARGV[i])
                local location = redis.call('hget', KEYS[5], ARGV[i])
                if location then
                  redis.call('zadd', KEYS[6], tonumber(string.match(location, '(%%d+)$')), ARGV[i])
                end
              end
            end
            redis.call('hdel', KEYS[2], ARGV[2])
            redis.call('hincrby', KEYS[4], 'layers', -1)
            redis.call('hincrby', KEYS[4], 'logical', 0 - tonumber(logical))
            redis.call('hincrby', KEYS[4], 'stored', 0 - tonumber(stored))
            redis.call('hincrby', KEYS[4], 'references', 0 - tonumber(files))
            return {'ok', 1}""".formatted(DEDUPLICATED));

    /** KEYS: marker, references. ARGV: fingerprint, file. */
    private static final RedisScript REFERENCES = new RedisScript(CHECK_MARKER + """
            return {'ok', tonumber(redis.call('hget', KEYS[2], ARGV[2]) or '0')}""");

    /** KEYS: marker, files, references, pack dead bytes, unreferenced. ARGV: fingerprint, stored-before cutoff, the files. */
    private static final RedisScript FORGET = new RedisScript(CHECK_MARKER + """
            local forgotten = {'ok'}
            for i = 3, #ARGV do
              local location = redis.call('hget', KEYS[2], ARGV[i])
              if location and tonumber(redis.call('hget', KEYS[3], ARGV[i]) or '0') <= 0
                  and tonumber(string.match(location, '(%d+)$')) < tonumber(ARGV[2]) then
                redis.call('hdel', KEYS[2], ARGV[i])
                redis.call('hdel', KEYS[3], ARGV[i])
                redis.call('zrem', KEYS[5], ARGV[i])
                local pack, length = string.match(location, '^(%S+) %d+ (%d+)')
                redis.call('hincrby', KEYS[4], pack, length)
                forgotten[#forgotten + 1] = ARGV[i]
              end
            end
            return forgotten""");

    /**
     * KEYS: marker, unreferenced, references, files. ARGV: fingerprint, stored-before cutoff, limit. Drops
     * entries that are referenced or forgotten since (none should be), so that they cannot clog the front.
     */
    private static final RedisScript UNREFERENCED = new RedisScript(CHECK_MARKER + """
            local found = {'ok'}
            for _, file in ipairs(redis.call('zrangebyscore', KEYS[2], '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))) do
              if redis.call('hexists', KEYS[3], file) == 1 or redis.call('hexists', KEYS[4], file) == 0 then
                redis.call('zrem', KEYS[2], file)
              else
                found[#found + 1] = file
              end
            end
            return found""");

    /** KEYS: marker, totals, intact counts, files. ARGV: fingerprint. */
    private static final RedisScript TOTALS = new RedisScript(CHECK_MARKER + """
            return {'ok', redis.call('hgetall', KEYS[2]), redis.call('hgetall', KEYS[3]), redis.call('hlen', KEYS[4])}""");

    /**
     * Files per script where files are independent (claims, locations, forgetting): 1,000 take Redis a few
     * milliseconds. A commit or release takes all of a layer's files in one script, which is what
     * makes it atomic.
     */
    private static final int FILES_PER_BATCH = 1_000;

    /** A rebuild keeps asking for another only if Redis restarts again and again meanwhile. */
    private static final int ATTEMPTS = 3;

    private final RedisClusterCommands<String, String> redis;
    private final DedupKeys keys;
    private final DedupLayerRecords records;
    private final RecordLocks locks;
    private final LayerRecordFiles recordFiles;
    private final DedupIndexRebuild rebuild;
    private final PackMoves moves;

    RedisDedupIndex(RedisClusterCommands<String, String> redis, S3Bucket bucket, DedupKeys keys, DedupLayerRecords records,
                    RecordLocks locks, Leases leases, ServerFingerprint servers, LayerRecordFiles recordFiles) {
        this.redis = redis;
        this.keys = keys;
        this.records = records;
        this.locks = locks;
        this.recordFiles = recordFiles;
        this.rebuild = new DedupIndexRebuild(redis, keys, records, leases, servers, this::restore);
        this.moves = new PackMoves(bucket);
    }

    @Override
    public Optional<FileLocation> file(Digest file) throws IOException {
        List<Object> reply = run("look up file " + file, FILE, List.of(keys.files()), List.of(file.toString()));
        return Optional.ofNullable((String) reply.get(1)).map(RedisDedupIndex::location);
    }

    @Override
    public Map<Digest, FileLocation> files(Collection<Digest> files) throws IOException {
        Map<Digest, FileLocation> found = new LinkedHashMap<>();
        for (List<Digest> batch : batches(List.copyOf(new LinkedHashSet<>(files)))) {
            List<Object> reply = run("look up " + batch.size() + " files", FILES, List.of(keys.files()),
                    batch.stream().map(Digest::toString).toList());
            for (int i = 0; i < batch.size(); i++) {
                if (reply.get(i + 1) instanceof String location) {
                    found.put(batch.get(i), location(location));
                }
            }
        }
        return found;
    }

    @Override
    public Map<Digest, FileClaim> claimFiles(Collection<Digest> files, String worker, Duration ttl) throws IOException {
        Map<Digest, FileClaim> claims = new LinkedHashMap<>();
        for (List<Digest> batch : batches(List.copyOf(new LinkedHashSet<>(files)))) {
            List<String> scriptKeys = new ArrayList<>(batch.size() + 1);
            List<String> args = new ArrayList<>(batch.size() + 2);
            scriptKeys.add(keys.files());
            args.add(worker);
            args.add(Long.toString(Math.max(1, ttl.toMillis())));
            for (Digest file : batch) {
                scriptKeys.add(keys.claim(file));
                args.add(file.toString());
            }
            List<Object> reply = run("claim " + batch.size() + " files", CLAIM, scriptKeys, args);
            for (int i = 0; i < batch.size(); i++) {
                String answer = (String) reply.get(i + 1);
                claims.put(batch.get(i), switch (answer) {
                    case "claimed" -> FileClaim.CLAIMED;
                    case "busy" -> FileClaim.BUSY;
                    default -> FileClaim.stored(location(answer));
                });
            }
        }
        return claims;
    }

    @Override
    public void packStored(Digest pack, long packSize, Map<Digest, FileLocation> files) throws IOException {
        storeLocations("record the files of pack " + pack, pack, packSize, files, null);
    }

    /**
     * Each file's claim and location are its own, so they go in batches: a script blocks all of Redis
     * while it runs. The pack is counted once, by whichever batch comes first.
     */
    private void storeLocations(String action, Digest pack, long packSize, Map<Digest, FileLocation> files,
                                String fingerprint) throws IOException {
        for (List<Digest> batch : batches(List.copyOf(files.keySet()))) {
            Map<Digest, FileLocation> part = new LinkedHashMap<>();
            batch.forEach(file -> part.put(file, files.get(file)));
            List<Object> reply = run(action, PACK_STORED, fingerprint, packStoredKeys(part), packStoredArgs(pack, packSize, part));
            if ("condemned".equals(reply.getFirst())) {
                throw new PackCondemnedException(pack);
            }
        }
    }

    private static <T> List<List<T>> batches(List<T> all) {
        List<List<T>> batches = new ArrayList<>();
        for (int from = 0; from < all.size(); from += FILES_PER_BATCH) {
            batches.add(all.subList(from, Math.min(all.size(), from + FILES_PER_BATCH)));
        }
        return batches;
    }

    private List<String> packStoredKeys(Map<Digest, FileLocation> files) {
        List<String> scriptKeys = new ArrayList<>(files.size() + 7);
        scriptKeys.add(keys.files());
        scriptKeys.add(keys.packs());
        scriptKeys.add(keys.totals());
        scriptKeys.add(keys.condemnedPacks());
        scriptKeys.add(keys.retiredPacks());
        scriptKeys.add(keys.packGeneration());
        scriptKeys.add(keys.unreferenced());
        files.keySet().forEach(file -> scriptKeys.add(keys.claim(file)));
        return scriptKeys;
    }

    private static List<String> packStoredArgs(Digest pack, long packSize, Map<Digest, FileLocation> files) {
        List<String> args = new ArrayList<>(files.size() * 2 + 3);
        args.add(pack.toString());
        args.add(Long.toString(packSize));
        args.add(Long.toString(PACK_CONDEMNATION_LIFETIME.toMillis()));
        files.forEach((file, location) -> {
            args.add(file.toString());
            args.add(location.pack() + " " + location.offset() + " " + location.length() + " " + location.size());
        });
        return args;
    }

    /**
     * A restore asks this for every pull of a layer, so it does not wait for a rebuild: while the index
     * is incomplete it reads the layer's record from the bucket, and has the rebuild started.
     */
    @Override
    public Optional<LayerState> layer(Digest layer) throws IOException {
        Optional<List<Object>> reply = tryRun("look up layer " + layer, LAYER, rebuild.fingerprint(),
                allKeys(List.of(keys.layers())), List.of(layer.toString()));
        if (reply.isEmpty()) {
            rebuild.startInBackground();
            return records.read(layer).map(DedupLayerRecords.Stored::state);
        }
        return Optional.ofNullable((String) reply.get().get(1)).map(DedupLayerRecords::decode)
                .map(DedupLayerRecords.Stored::state);
    }

    private Optional<DedupLayerRecords.Stored> stored(Digest layer) throws IOException {
        List<Object> reply = run("look up layer " + layer, LAYER, List.of(keys.layers()), List.of(layer.toString()));
        return Optional.ofNullable((String) reply.get(1)).map(DedupLayerRecords::decode);
    }

    @Override
    public void keepIntact(Digest layer, String reason) throws IOException {
        DedupLayerRecords.Stored intact = new DedupLayerRecords.Stored(new LayerState.Intact(reason), 0);
        locks.holding(DedupLayerRecords.key(layer), () -> {
            Optional<DedupLayerRecords.Stored> prior = stored(layer);
            if (prior.isPresent() && (prior.get().state() instanceof LayerState.Deduplicated || prior.get().equals(intact))) {
                return null;
            }
            records.put(layer, intact);
            indexIntact(layer, intact, null);
            return null;
        });
    }

    /** Runs the intact script; {@code fingerprint} null means check the marker, as every caller but the rebuild does. */
    private void indexIntact(Digest layer, DedupLayerRecords.Stored intact, String fingerprint) throws IOException {
        run("record layer " + layer + " as intact", KEEP_INTACT, fingerprint, List.of(keys.layers(), keys.intact()),
                List.of(layer.toString(), DedupLayerRecords.encode(intact), ((LayerState.Intact) intact.state()).reason()));
    }

    @Override
    public boolean commitLayer(Digest layer, LayerState.Deduplicated state, Collection<Digest> files) throws IOException {
        List<Digest> distinct = List.copyOf(new LinkedHashSet<>(files));
        DedupLayerRecords.Stored committed = new DedupLayerRecords.Stored(state, distinct.size());
        return locks.holding(DedupLayerRecords.key(layer), () -> {
            Optional<DedupLayerRecords.Stored> prior = stored(layer);
            if (prior.isPresent() && prior.get().state() instanceof LayerState.Deduplicated) {
                return true;
            }
            records.put(layer, committed);
            if (indexCommit(layer, committed, distinct, null)) {
                return true;
            }
            // Not every file is stored (one may have been forgotten since): the bucket must not say more than the index.
            if (prior.isPresent()) {
                records.put(layer, prior.get());
            } else {
                records.delete(layer);
            }
            return false;
        });
    }

    /** Runs the commit script; {@code fingerprint} null means check the marker, as every caller but the rebuild does. */
    private boolean indexCommit(Digest layer, DedupLayerRecords.Stored committed, Collection<Digest> distinct,
                                String fingerprint) throws IOException {
        LayerState.Deduplicated state = (LayerState.Deduplicated) committed.state();
        List<String> args = new ArrayList<>(distinct.size() + 5);
        args.add(layer.toString());
        args.add(DedupLayerRecords.encode(committed));
        args.add(Long.toString(state.logicalSize()));
        args.add(Long.toString(state.recordSize()));
        args.add(Integer.toString(committed.files()));
        distinct.forEach(file -> args.add(file.toString()));
        List<Object> reply = run("commit layer " + layer, COMMIT, fingerprint,
                List.of(keys.layers(), keys.intact(), keys.files(), keys.references(), keys.totals(), keys.unreferenced()), args);
        return Long.valueOf(1).equals(reply.get(1));
    }

    @Override
    public boolean releaseLayer(Digest layer, Collection<Digest> files) throws IOException {
        List<String> args = new ArrayList<>(files.size() + 1);
        args.add(layer.toString());
        new LinkedHashSet<>(files).forEach(file -> args.add(file.toString()));
        return locks.holding(DedupLayerRecords.key(layer), () -> {
            boolean recorded = records.read(layer).filter(stored -> stored.state() instanceof LayerState.Deduplicated)
                    .isPresent();
            if (recorded) {
                records.delete(layer);
            }
            List<Object> reply = run("release layer " + layer, RELEASE,
                    List.of(keys.layers(), keys.references(), keys.totals(), keys.files(), keys.unreferenced()), args);
            return recorded || Long.valueOf(1).equals(reply.get(1));
        });
    }

    @Override
    public long references(Digest file) throws IOException {
        List<Object> reply = run("count references to " + file, REFERENCES, List.of(keys.references()),
                List.of(file.toString()));
        return (Long) reply.get(1);
    }

    @Override
    public Collection<Digest> forgetUnreferenced(Collection<Digest> files, long storedBeforeMillis) throws IOException {
        List<Digest> forgotten = new ArrayList<>();
        for (List<Digest> batch : batches(List.copyOf(new LinkedHashSet<>(files)))) {
            List<String> args = new ArrayList<>(batch.size() + 1);
            args.add(Long.toString(storedBeforeMillis));
            batch.forEach(file -> args.add(file.toString()));
            List<Object> reply = run("forget unreferenced files", FORGET,
                    List.of(keys.files(), keys.references(), keys.packDead(), keys.unreferenced()), args);
            reply.subList(1, reply.size()).forEach(file -> forgotten.add(Digest.parse((String) file)));
        }
        return forgotten;
    }

    @Override
    public List<Digest> unreferencedFiles(long storedBeforeMillis, int limit) throws IOException {
        List<Object> reply = run("find unreferenced files", UNREFERENCED, List.of(keys.unreferenced(), keys.references(), keys.files()),
                List.of(Long.toString(storedBeforeMillis), Integer.toString(limit)));
        return reply.subList(1, reply.size()).stream().map(file -> Digest.parse((String) file)).toList();
    }

    @Override
    public List<PackUse> sparsePacks(double liveShare, int limit) throws IOException {
        List<Object> reply = run("find sparse packs", SPARSE_PACKS, List.of(keys.packs(), keys.packDead(), keys.packGeneration()),
                List.of(Double.toString(liveShare), Integer.toString(limit)));
        List<PackUse> packs = new ArrayList<>();
        for (int i = 1; i + 3 < reply.size(); i += 4) {
            packs.add(new PackUse(Digest.parse((String) reply.get(i)), (Long) reply.get(i + 1), (Long) reply.get(i + 2),
                    (Long) reply.get(i + 3)));
        }
        return packs;
    }

    /** The bucket learns where the files went first (a rebuild follows it), then Redis switches them in one script. */
    @Override
    public boolean relocate(Digest from, long generation, Optional<PackCopy> copy) throws IOException {
        Optional<Map<Digest, FileLocation>> movesBefore = copy.isPresent()
                ? moves.add(from, copy.get().locations()) : Optional.empty();
        Map<Digest, FileLocation> moved = copy.map(PackCopy::locations).orElse(Map.of());
        List<String> args = new ArrayList<>(moved.size() * 3 + 4);
        args.add(from.toString());
        args.add(Long.toString(generation));
        args.add(copy.map(c -> c.pack().toString()).orElse(""));
        args.add(Long.toString(copy.map(PackCopy::size).orElse(0L)));
        moved.forEach((file, location) -> {
            args.add(file.toString());
            args.add(Long.toString(copy.get().oldOffsets().get(file)));
            args.add(location.pack() + " " + location.offset() + " " + location.length() + " " + location.size());
        });
        List<Object> reply = run("move the live files of pack " + from, RELOCATE, List.of(keys.files(), keys.packs(),
                keys.packDead(), keys.totals(), keys.retiredPacks(), keys.packGeneration()), args);
        boolean relocated = Long.valueOf(1).equals(reply.get(1));
        if (!relocated && copy.isPresent()) {
            moves.restore(from, movesBefore);
        }
        return relocated;
    }

    @Override
    public List<Digest> retiredPacks(long retiredBeforeMillis, int limit) throws IOException {
        List<Object> reply = run("list retired packs", RETIRED_PACKS, List.of(keys.retiredPacks()),
                List.of(Long.toString(retiredBeforeMillis), Integer.toString(limit)));
        return reply.subList(1, reply.size()).stream().map(pack -> Digest.parse((String) pack)).toList();
    }

    @Override
    public boolean condemnPack(Digest pack, long retiredBeforeMillis) throws IOException {
        List<Object> reply = run("condemn pack " + pack, CONDEMN_PACK,
                List.of(keys.packs(), keys.condemnedPacks(), keys.retiredPacks()),
                List.of(pack.toString(), Long.toString(PACK_CONDEMNATION_LIFETIME.toMillis()), Long.toString(retiredBeforeMillis)));
        return Long.valueOf(1).equals(reply.get(1));
    }

    @Override
    public void buryPack(Digest pack) throws IOException {
        run("bury pack " + pack, BURY_PACK, List.of(keys.condemnedPacks(), keys.retiredPacks(), keys.packGeneration()),
                List.of(pack.toString()));
    }

    @Override
    public DedupTotals totals() throws IOException {
        List<Object> reply = run("read the dedup totals", TOTALS, List.of(keys.totals(), keys.intact(), keys.files()),
                List.of());
        Map<String, Long> totals = pairs((List<?>) reply.get(1));
        Map<String, Long> intact = new TreeMap<>(pairs((List<?>) reply.get(2)));
        return new DedupTotals(totals.getOrDefault("layers", 0L), totals.getOrDefault("logical", 0L),
                totals.getOrDefault("stored", 0L), totals.getOrDefault("references", 0L), (Long) reply.get(3), intact);
    }

    /**
     * Applies one layer record to the index during a rebuild (the marker is not checked: it is absent
     * until the rebuild ends): its files' locations from its record blob, then the layer as committed.
     */
    private void restore(String recordKey) throws IOException {
        Optional<Digest> layer = DedupLayerRecords.layer(recordKey);
        Optional<DedupLayerRecords.Stored> stored = layer.isPresent() ? records.readKey(recordKey) : Optional.empty();
        if (stored.isEmpty()) {
            return;
        }
        if (stored.get().state() instanceof LayerState.Deduplicated deduplicated) {
            Map<Digest, FileLocation> files = moves.follow(recordFiles.files(deduplicated.record()), new HashMap<>());
            Map<Digest, Map<Digest, FileLocation>> byPack = new LinkedHashMap<>();
            files.forEach((file, location) -> byPack.computeIfAbsent(location.pack(), pack -> new LinkedHashMap<>())
                    .put(file, location));
            for (Map.Entry<Digest, Map<Digest, FileLocation>> pack : byPack.entrySet()) {
                storeLocations("restore the files of layer " + layer.get(), pack.getKey(),
                        recordFiles.packSize(pack.getKey()), pack.getValue(), "");
            }
            indexCommit(layer.get(), new DedupLayerRecords.Stored(deduplicated, files.size()), files.keySet(), "");
        } else {
            indexIntact(layer.get(), stored.get(), "");
        }
    }

    private List<Object> run(String action, RedisScript script, List<String> scriptKeys, List<String> args)
            throws IOException {
        return run(action, script, null, scriptKeys, args);
    }

    /**
     * Runs a script with the marker first in its keys and {@code fingerprint} (null: the current
     * servers') first in its arguments; if it finds the index incomplete, waits for the rebuild and
     * runs it again.
     */
    private List<Object> run(String action, RedisScript script, String fingerprint, List<String> scriptKeys,
                             List<String> args) throws IOException {
        String[] allKeys = allKeys(scriptKeys);
        for (int attempt = 1; ; attempt++) {
            Optional<List<Object>> reply = tryRun(action, script,
                    fingerprint != null ? fingerprint : rebuild.fingerprint(), allKeys, args);
            if (reply.isPresent()) {
                return reply.get();
            }
            if (attempt == ATTEMPTS) {
                throw new IOException("cannot " + action + ": the dedup index was rebuilt " + ATTEMPTS
                        + " times and Redis still does not hold it (restarting again and again?)");
            }
            rebuild.ensureComplete();
        }
    }

    /** Runs a script once; empty if it found the index incomplete (and so changed nothing). */
    private Optional<List<Object>> tryRun(String action, RedisScript script, String fingerprint, String[] allKeys,
                                          List<String> args) throws IOException {
        String[] allArgs = new String[args.size() + 1];
        allArgs[0] = fingerprint;
        for (int i = 0; i < args.size(); i++) {
            allArgs[i + 1] = args.get(i);
        }
        List<Object> reply = call(action, () -> script.run(redis, ScriptOutputType.MULTI, allKeys, allArgs));
        return STALE.equals(reply.getFirst()) ? Optional.empty() : Optional.of(reply);
    }

    private String[] allKeys(List<String> scriptKeys) {
        String[] allKeys = new String[scriptKeys.size() + 1];
        allKeys[0] = keys.complete();
        for (int i = 0; i < scriptKeys.size(); i++) {
            allKeys[i + 1] = scriptKeys.get(i);
        }
        return allKeys;
    }

    private static FileLocation location(String encoded) {
        String[] fields = encoded.split(" ");
        return new FileLocation(Digest.parse(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]),
                Long.parseLong(fields[3]));
    }

    private static Map<String, Long> pairs(List<?> flat) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put((String) flat.get(i), Long.parseLong((String) flat.get(i + 1)));
        }
        return map;
    }
}
