package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.util.Optional;

/**
 * Redis key names. Everything about one repository carries the hash tag {@code {<repository>}}, so
 * the scripts that change several of its keys at once run on Redis Cluster, where all keys of a
 * script must live in one slot. Upload state shares the tag {@code {uploads}} with the idle-time
 * index it is updated together with.
 */
final class IndexKeys {

    static final String BLOBS = "blobs";
    static final String MANIFESTS = "manifests";
    static final String TAGS = "tags";
    static final String TAG_NAMES = "tag-names";
    static final String REFERRERS = "referrers:";
    static final String SUBJECTS = "subjects:";

    /** A key of one repository: the repository, and what follows its hash tag (such as {@value #BLOBS}). */
    record RepositoryKey(RepositoryName repository, String suffix) {
    }

    private final String namespace;

    IndexKeys(String namespace) {
        if (namespace == null || namespace.isEmpty() || namespace.contains("{") || namespace.contains("}")) {
            throw new IllegalArgumentException("Redis key namespace '" + namespace + "' must be non-empty and free of "
                    + "braces (they would change which cluster slot keys land in)");
        }
        this.namespace = namespace;
    }

    /** The prefix of every key, checked to be free of hash tags. */
    String namespace() {
        return namespace;
    }

    private String repository(RepositoryName repository, String suffix) {
        return namespace + ":{" + repository.value() + "}:" + suffix;
    }

    /** Pattern matching the keys of every repository, and the upload keys, which look alike. */
    String allRepositoryKeys() {
        return namespace + ":{*}:*";
    }

    /** Splits a key made by {@link #repository}; empty for other keys. */
    Optional<RepositoryKey> repositoryKey(String key) {
        String start = namespace + ":{";
        int end = key.indexOf("}:", start.length());
        if (!key.startsWith(start) || end < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RepositoryKey(RepositoryName.of(key.substring(start.length(), end)),
                    key.substring(end + 2)));
        } catch (IllegalArgumentException notARepository) {
            return Optional.empty();
        }
    }

    /** Set of the digests of blobs linked into the repository. */
    String blobs(RepositoryName repository) {
        return repository(repository, BLOBS);
    }

    /** Hash: manifest digest to its record (RecordCodec). */
    String manifests(RepositoryName repository) {
        return repository(repository, MANIFESTS);
    }

    /** Hash: tag to manifest digest. */
    String tags(RepositoryName repository) {
        return repository(repository, TAGS);
    }

    /** Sorted set of tag names, all with score 0, for lexical paging (ZRANGEBYLEX). */
    String tagNames(RepositoryName repository) {
        return repository(repository, TAG_NAMES);
    }

    /** Hash: referrer digest to its descriptor, for one subject. */
    String referrers(RepositoryName repository, Digest subject) {
        return repository(repository, REFERRERS + subject);
    }

    /** Set of the subjects a manifest refers to, so deleting the manifest finds its referrer entries. */
    String subjects(RepositoryName repository, Digest referrer) {
        return repository(repository, SUBJECTS + referrer);
    }

    /** Sorted set of repository names with at least one link, all with score 0, for the catalog. */
    String catalog() {
        return namespace + ":catalog";
    }

    /** Hash: one upload's state. */
    String upload(String uploadId) {
        return namespace + ":{uploads}:upload:" + uploadId;
    }

    /** Sorted set of upload ids scored by last update (epoch milliseconds). */
    String uploadsByIdleTime() {
        return namespace + ":{uploads}:by-update-time";
    }

    /**
     * Present once the index held everything in the bucket, holding the fingerprint of the Redis
     * servers it was complete on ({@link ServerFingerprint}); a marker of other servers means Redis
     * may have restarted from old persistence or failed over to a lagging replica (see IndexRebuild).
     */
    String indexComplete() {
        return namespace + ":index-complete";
    }

    /** Pattern matching every key of this namespace. */
    String all() {
        return namespace + ":*";
    }
}
