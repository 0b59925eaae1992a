package dev.layerfold.storage.redis;

import static dev.layerfold.storage.redis.RedisCalls.call;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The index read back as the facts it says the bucket holds, so that a reconcile can find the
 * entries whose record is gone (see {@link IndexRebuild}).
 */
final class IndexedFacts {

    private static final int KEYS_PER_SCAN = 1_000;

    private final RedisClusterCommands<String, String> redis;
    private final IndexKeys keys;

    IndexedFacts(RedisClusterCommands<String, String> redis, IndexKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** The index's keys of every repository (on Cluster, SCAN visits every master). */
    Map<RepositoryName, List<String>> keysByRepository() throws IOException {
        Map<RepositoryName, List<String>> found = new HashMap<>();
        ScanArgs args = ScanArgs.Builder.matches(keys.allRepositoryKeys()).limit(KEYS_PER_SCAN);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor from = cursor;
            KeyScanCursor<String> page = call("list the index keys", () -> redis.scan(from, args));
            for (String key : page.getKeys()) {
                keys.repositoryKey(key).ifPresent(repositoryKey ->
                        found.computeIfAbsent(repositoryKey.repository(), absent -> new ArrayList<>()).add(key));
            }
            cursor = page;
        } while (!cursor.isFinished());
        return found;
    }

    /** The facts the given keys of one repository hold entries for; keys of uploads are ignored. */
    Set<BucketRecords.Fact> facts(RepositoryName repository, Collection<String> repositoryKeys) throws IOException {
        Set<BucketRecords.Fact> facts = new LinkedHashSet<>();
        for (String key : repositoryKeys) {
            String suffix = keys.repositoryKey(key).orElseThrow().suffix();
            try {
                if (suffix.equals(IndexKeys.BLOBS)) {
                    members(key).forEach(blob -> facts.add(new BucketRecords.BlobLink(repository, Digest.parse(blob))));
                } else if (suffix.equals(IndexKeys.MANIFESTS)) {
                    fields(key).forEach(manifest ->
                            facts.add(new BucketRecords.ManifestLink(repository, Digest.parse(manifest))));
                } else if (suffix.equals(IndexKeys.TAGS)) {
                    fields(key).forEach(tag -> facts.add(new BucketRecords.Tag(repository, tag)));
                } else if (suffix.equals(IndexKeys.TAG_NAMES)) {
                    call("read " + key, () -> redis.zrange(key, 0, -1))
                            .forEach(tag -> facts.add(new BucketRecords.Tag(repository, tag)));
                } else if (suffix.startsWith(IndexKeys.REFERRERS)) {
                    Digest subject = Digest.parse(suffix.substring(IndexKeys.REFERRERS.length()));
                    fields(key).forEach(referrer ->
                            facts.add(new BucketRecords.Referrer(repository, subject, Digest.parse(referrer))));
                } else if (suffix.startsWith(IndexKeys.SUBJECTS)) {
                    Digest referrer = Digest.parse(suffix.substring(IndexKeys.SUBJECTS.length()));
                    members(key).forEach(subject ->
                            facts.add(new BucketRecords.Referrer(repository, Digest.parse(subject), referrer)));
                }
            } catch (IllegalArgumentException foreignKey) {
                // not written by this store (an upload key, or another version's): nothing to reconcile
            }
        }
        return facts;
    }

    private Set<String> members(String key) throws IOException {
        return call("read " + key, () -> redis.smembers(key));
    }

    private List<String> fields(String key) throws IOException {
        return call("read " + key, () -> redis.hkeys(key));
    }
}
