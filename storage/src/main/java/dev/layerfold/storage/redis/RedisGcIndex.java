package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The garbage collector's index in Redis, every key under the hash tag {@code {#gc}} so that each
 * operation is one Lua script, atomic on Redis Cluster too, and timed by Redis's clock:
 * <ul>
 *   <li>{@code refs:<target>}: set of the {@code <repository>@<manifest>} pairs referencing it;</li>
 *   <li>{@code held:<repository>@<manifest>}: set of what that pair references, for {@link #unreference};</li>
 *   <li>{@code holders}: hash of each such pair to when it first referenced anything;</li>
 *   <li>{@code releases}: hash of each such pair being deleted to when that was recorded ({@link #releasing});</li>
 *   <li>{@code candidates}: sorted set of digests by when they became candidates;</li>
 *   <li>{@code links:<digest>}: set of repositories a touch linked it into;</li>
 *   <li>{@code condemned}: hash of digest to when it was condemned;</li>
 *   <li>{@code swept}: the digest the collector's sweep of the bucket stopped after;</li>
 *   <li>{@code complete}: {@code <fingerprint> <since>}, the servers the index is complete on
 *       ({@link ServerFingerprint}) and since when.</li>
 * </ul>
 *
 * <p>Nothing here is in the bucket. Redis that loses it (told by the fingerprint) loses references,
 * candidates and touches: the collector then condemns nothing until it rebuilt the references from
 * the manifests and a grace period passed, so that no touch lost with Redis can matter.
 */
final class RedisGcIndex implements GcIndex {

    private static final String NOW = """
            local clock = redis.call('time')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            """;

    /** KEYS: condemned, candidates, links. ARGV: lifetime, digest, and the repository unless none is linked. */
    private static final RedisScript TOUCH = new RedisScript(NOW + """
            local at = redis.call('hget', KEYS[1], ARGV[2])
            if at and now - tonumber(at) < tonumber(ARGV[1]) then
              return 0
            end
            redis.call('zadd', KEYS[2], 'GT', now, ARGV[2])
            if ARGV[3] then
              redis.call('sadd', KEYS[3], ARGV[3])
            end
            return 1""");

    /** KEYS: condemned, held, holders, refs of each target, releases. ARGV: lifetime, holder, the targets. */
    private static final RedisScript REFERENCE = new RedisScript(NOW + """
            local condemned = {}
            for i = 3, #ARGV do
              local at = redis.call('hget', KEYS[1], ARGV[i])
              if at and now - tonumber(at) < tonumber(ARGV[1]) then
                condemned[#condemned + 1] = ARGV[i]
              end
            end
            if #condemned > 0 then
              return condemned
            end
            redis.call('hsetnx', KEYS[3], ARGV[2], now)
            for i = 3, #ARGV do
              redis.call('sadd', KEYS[2], ARGV[i])
              redis.call('sadd', KEYS[i + 1], ARGV[2])
            end
            redis.call('hdel', KEYS[#KEYS], ARGV[2])
            return condemned""");

    /**
     * KEYS: candidates, held, holders, refs of each target, releases. ARGV: holder, the release time it
     * must still be recorded with ('' for any), the targets.
     */
    private static final RedisScript UNREFERENCE = new RedisScript(NOW + """
            if ARGV[2] ~= '' and redis.call('hget', KEYS[#KEYS], ARGV[1]) ~= ARGV[2] then
              return 0
            end
            for i = 3, #ARGV do
              redis.call('srem', KEYS[i + 1], ARGV[1])
              redis.call('srem', KEYS[2], ARGV[i])
              redis.call('zadd', KEYS[1], 'GT', now, ARGV[i])
            end
            if redis.call('scard', KEYS[2]) == 0 then
              redis.call('hdel', KEYS[3], ARGV[1])
            end
            redis.call('hdel', KEYS[#KEYS], ARGV[1])
            return 1""");

    /** KEYS: releases. ARGV: holder. */
    private static final RedisScript RELEASING = new RedisScript(NOW + """
            redis.call('hset', KEYS[1], ARGV[1], now)
            return 1""");

    /** KEYS: releases. ARGV: age, limit. Answers holder and time of each. */
    private static final RedisScript UNFINISHED_RELEASES = new RedisScript(NOW + """
            local found = {}
            local all = redis.call('hgetall', KEYS[1])
            for i = 1, #all, 2 do
              if #found < 2 * tonumber(ARGV[2]) and tonumber(all[i + 1]) <= now - tonumber(ARGV[1]) then
                found[#found + 1] = all[i]
                found[#found + 1] = all[i + 1]
              end
            end
            return found""");

    /** KEYS: releases. ARGV: holder, the release time it must still be recorded with. */
    private static final RedisScript DROP_RELEASE = new RedisScript("""
            if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then
              redis.call('hdel', KEYS[1], ARGV[1])
            end
            return 1""");

    /** KEYS: condemned, candidates, refs. ARGV: digest, since. */
    private static final RedisScript NOMINATE = new RedisScript(NOW + """
            if redis.call('hexists', KEYS[1], ARGV[1]) == 1 or redis.call('zscore', KEYS[2], ARGV[1])
                or redis.call('scard', KEYS[3]) > 0 then
              return 0
            end
            redis.call('zadd', KEYS[2], math.min(tonumber(ARGV[2]), now), ARGV[1])
            return 1""");

    /** KEYS: candidates. ARGV: grace, limit. */
    private static final RedisScript CANDIDATES = new RedisScript(NOW + """
            return redis.call('zrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[2]))""");

    /** KEYS: complete, condemned, candidates, refs, links. ARGV: fingerprint, grace, lifetime, digest. */
    private static final RedisScript CONDEMN = new RedisScript(NOW + """
            local cutoff = now - tonumber(ARGV[2])
            local marker = redis.call('get', KEYS[1])
            if not marker then
              return {'incomplete'}
            end
            local servers, since = string.match(marker, '^(.*) (%d+)$')
            if servers ~= ARGV[1] or tonumber(since) > cutoff then
              return {'incomplete'}
            end
            local at = redis.call('hget', KEYS[2], ARGV[4])
            if at and now - tonumber(at) < tonumber(ARGV[3]) then
              return {'condemned already'}
            end
            local candidate = redis.call('zscore', KEYS[3], ARGV[4])
            if not candidate then
              return {'not a candidate'}
            end
            if redis.call('scard', KEYS[4]) > 0 then
              redis.call('zrem', KEYS[3], ARGV[4])
              return {'referenced'}
            end
            if tonumber(candidate) > cutoff then
              return {'young'}
            end
            redis.call('hset', KEYS[2], ARGV[4], now)
            return {'condemned', tostring(now), redis.call('smembers', KEYS[5])}""");

    /** KEYS: condemned. ARGV: digest, when condemned, half the lifetime. */
    private static final RedisScript STILL_CONDEMNED = new RedisScript(NOW + """
            local at = redis.call('hget', KEYS[1], ARGV[1])
            if at == ARGV[2] and now - tonumber(at) < tonumber(ARGV[3]) then
              return 1
            end
            return 0""");

    /** KEYS: condemned, candidates, links. ARGV: digest, when condemned. */
    private static final RedisScript BURY = new RedisScript("""
            if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then
              redis.call('hdel', KEYS[1], ARGV[1])
              redis.call('zrem', KEYS[2], ARGV[1])
              redis.call('del', KEYS[3])
            end
            return 1""");

    /** KEYS: complete. ARGV: fingerprint, whether since ever. */
    private static final RedisScript MARK_COMPLETE = new RedisScript(NOW + """
            local since = now
            if ARGV[2] == '1' then
              since = 0
            end
            redis.call('set', KEYS[1], ARGV[1] .. ' ' .. since)
            return 1""");

    private final RedisClusterCommands<String, String> redis;
    private final String prefix;
    private final ServerFingerprint servers;

    RedisGcIndex(RedisClusterCommands<String, String> redis, IndexKeys keys, ServerFingerprint servers) {
        this.redis = redis;
        this.prefix = keys.namespace() + ":{#gc}:";
        this.servers = servers;
    }

    @Override
    public boolean touch(RepositoryName repository, Digest digest) throws IOException {
        return touch(digest, List.of(repository.value()));
    }

    @Override
    public boolean touch(Digest digest) throws IOException {
        return touch(digest, List.of());
    }

    private boolean touch(Digest digest, List<String> linkedInto) throws IOException {
        List<String> args = new ArrayList<>(List.of(Long.toString(CONDEMNATION_LIFETIME.toMillis()), digest.toString()));
        args.addAll(linkedInto);
        return call("touch " + digest, () -> TOUCH.returnsTrue(redis,
                new String[] {condemned(), candidates(), links(digest)}, args.toArray(String[]::new)));
    }

    @Override
    public Set<Digest> reference(RepositoryName repository, Digest manifest, Collection<Digest> targets) throws IOException {
        List<Digest> distinct = List.copyOf(new LinkedHashSet<>(targets));
        List<String> scriptKeys = new ArrayList<>(List.of(condemned(), held(repository, manifest), holders()));
        List<String> args = new ArrayList<>(List.of(Long.toString(CONDEMNATION_LIFETIME.toMillis()), holder(repository, manifest)));
        for (Digest target : distinct) {
            scriptKeys.add(refs(target));
            args.add(target.toString());
        }
        scriptKeys.add(releases());
        List<Object> condemned = call("reference the blobs of " + manifest, () -> REFERENCE.run(redis,
                ScriptOutputType.MULTI, scriptKeys.toArray(String[]::new), args.toArray(String[]::new)));
        Set<Digest> refused = new LinkedHashSet<>();
        condemned.forEach(digest -> refused.add(Digest.parse((String) digest)));
        return refused;
    }

    @Override
    public void unreference(RepositoryName repository, Digest manifest) throws IOException {
        unreference(repository, manifest, "");
    }

    private void unreference(RepositoryName repository, Digest manifest, String releasedAt) throws IOException {
        String held = held(repository, manifest);
        Set<String> targets = call("read the references of " + manifest, () -> redis.smembers(held));
        List<String> scriptKeys = new ArrayList<>(List.of(candidates(), held, holders()));
        List<String> args = new ArrayList<>(List.of(holder(repository, manifest), releasedAt));
        for (String target : targets) {
            scriptKeys.add(refs(Digest.parse(target)));
            args.add(target);
        }
        scriptKeys.add(releases());
        call("drop the references of " + manifest, () -> UNREFERENCE.run(redis, ScriptOutputType.INTEGER,
                scriptKeys.toArray(String[]::new), args.toArray(String[]::new)));
    }

    @Override
    public void releasing(RepositoryName repository, Digest manifest) throws IOException {
        call("record the release of " + manifest, () -> RELEASING.returnsTrue(redis, new String[] {releases()},
                holder(repository, manifest)));
    }

    @Override
    public List<Release> unfinishedReleases(Duration age, int limit) throws IOException {
        List<Object> found = call("read unfinished releases", () -> UNFINISHED_RELEASES.run(redis, ScriptOutputType.MULTI,
                new String[] {releases()}, Long.toString(age.toMillis()), Integer.toString(limit)));
        List<Release> releases = new ArrayList<>();
        for (int i = 0; i + 1 < found.size(); i += 2) {
            String holder = (String) found.get(i);
            int at = holder.indexOf('@');
            releases.add(new Release(RepositoryName.of(holder.substring(0, at)), Digest.parse(holder.substring(at + 1)),
                    Long.parseLong((String) found.get(i + 1))));
        }
        return releases;
    }

    @Override
    public void finishRelease(Release release) throws IOException {
        unreference(release.repository(), release.manifest(), Long.toString(release.atMillis()));
    }

    @Override
    public void dropRelease(Release release) throws IOException {
        call("drop the release of " + release.manifest(), () -> DROP_RELEASE.returnsTrue(redis, new String[] {releases()},
                holder(release.repository(), release.manifest()), Long.toString(release.atMillis())));
    }

    @Override
    public Optional<Long> referencedSince(RepositoryName repository, Digest manifest) throws IOException {
        String since = call("read when " + manifest + " was pushed", () -> redis.hget(holders(), holder(repository, manifest)));
        return Optional.ofNullable(since).map(Long::parseLong);
    }

    @Override
    public long references(Digest target) throws IOException {
        return call("count the references to " + target, () -> redis.scard(refs(target)));
    }

    @Override
    public List<Digest> candidates(Duration grace, int limit) throws IOException {
        List<Object> digests = call("list candidates", () -> CANDIDATES.run(redis, ScriptOutputType.MULTI,
                new String[] {candidates()}, Long.toString(grace.toMillis()), Integer.toString(limit)));
        return digests.stream().map(digest -> Digest.parse((String) digest)).toList();
    }

    @Override
    public boolean nominate(Digest digest, long sinceMillis) throws IOException {
        return call("nominate " + digest, () -> NOMINATE.returnsTrue(redis,
                new String[] {condemned(), candidates(), refs(digest)}, digest.toString(), Long.toString(sinceMillis)));
    }

    @Override
    public Optional<Digest> sweptUpTo() throws IOException {
        return Optional.ofNullable(call("read where the sweep stopped", () -> redis.get(swept()))).map(Digest::parse);
    }

    @Override
    public void sweptUpTo(Optional<Digest> digest) throws IOException {
        if (digest.isPresent()) {
            call("save where the sweep stopped", () -> redis.set(swept(), digest.get().toString()));
        } else {
            call("start the sweep over", () -> redis.del(swept()));
        }
    }

    @Override
    public Optional<Condemnation> condemn(Digest digest, Duration grace) throws IOException {
        String fingerprint = servers.current();
        List<Object> reply = call("condemn " + digest, () -> CONDEMN.run(redis, ScriptOutputType.MULTI,
                new String[] {complete(), condemned(), candidates(), refs(digest), links(digest)},
                fingerprint, Long.toString(grace.toMillis()), Long.toString(CONDEMNATION_LIFETIME.toMillis()),
                digest.toString()));
        if (!"condemned".equals(reply.get(0))) {
            return Optional.empty();
        }
        Set<RepositoryName> linkedIn = new LinkedHashSet<>();
        ((List<?>) reply.get(2)).forEach(repository -> linkedIn.add(RepositoryName.of((String) repository)));
        return Optional.of(new Condemnation(digest, Long.parseLong((String) reply.get(1)), linkedIn));
    }

    @Override
    public boolean stillCondemned(Condemnation condemnation) throws IOException {
        return call("check the condemnation of " + condemnation.digest(), () -> STILL_CONDEMNED.returnsTrue(redis,
                new String[] {condemned()}, condemnation.digest().toString(), Long.toString(condemnation.atMillis()),
                Long.toString(CONDEMNATION_LIFETIME.toMillis() / 2)));
    }

    @Override
    public void bury(Condemnation condemnation) throws IOException {
        Digest digest = condemnation.digest();
        call("bury " + digest, () -> BURY.run(redis, ScriptOutputType.INTEGER,
                new String[] {condemned(), candidates(), links(digest)}, digest.toString(),
                Long.toString(condemnation.atMillis())));
    }

    @Override
    public Optional<Long> completeSince() throws IOException {
        String marker = call("read the GC index marker", () -> redis.get(complete()));
        if (marker == null) {
            return Optional.empty();
        }
        int space = marker.lastIndexOf(' ');
        return marker.substring(0, space).equals(servers.current())
                ? Optional.of(Long.parseLong(marker.substring(space + 1)))
                : Optional.empty();
    }

    @Override
    public String generation() throws IOException {
        return servers.refresh();
    }

    @Override
    public boolean markComplete(String generation, boolean sinceEver) throws IOException {
        if (!servers.refresh().equals(generation)) {
            return false;
        }
        return call("mark the GC index complete", () -> MARK_COMPLETE.returnsTrue(redis, new String[] {complete()},
                generation, sinceEver ? "1" : "0"));
    }

    private String refs(Digest target) {
        return prefix + "refs:" + target;
    }

    private String held(RepositoryName repository, Digest manifest) {
        return prefix + "held:" + holder(repository, manifest);
    }

    private static String holder(RepositoryName repository, Digest manifest) {
        return repository.value() + "@" + manifest;
    }

    /** Hash of each {@code <repository>@<manifest>} whose references are going to when that was recorded. */
    private String releases() {
        return prefix + "releases";
    }

    private String holders() {
        return prefix + "holders";
    }

    private String candidates() {
        return prefix + "candidates";
    }

    private String links(Digest digest) {
        return prefix + "links:" + digest;
    }

    private String condemned() {
        return prefix + "condemned";
    }

    private String swept() {
        return prefix + "swept";
    }

    private String complete() {
        return prefix + "complete";
    }
}
