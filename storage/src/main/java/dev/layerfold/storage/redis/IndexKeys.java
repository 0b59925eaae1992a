package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;

/**
 * Redis key names. Everything about one repository carries the hash tag {@code {<repository>}}, so
 * the scripts that change several of its keys at once run on Redis Cluster, where all keys of a
 * script must live in one slot. Upload state shares the tag {@code {uploads}} with the idle-time
 * index it is updated together with.
 */
final class IndexKeys {

    private final String namespace;

    IndexKeys(String namespace) {
        if (namespace == null || namespace.isEmpty() || namespace.contains("{") || namespace.contains("}")) {
            throw new IllegalArgumentException("Redis key namespace '" + namespace + "' must be non-empty and free of "
                    + "braces (they would change which cluster slot keys land in)");
        }
        this.namespace = namespace;
    }

    private String repository(RepositoryName repository, String suffix) {
        return namespace + ":{" + repository.value() + "}:" + suffix;
    }

    /** Set of the digests of blobs linked into the repository. */
    String blobs(RepositoryName repository) {
        return repository(repository, "blobs");
    }

    /** Hash: manifest digest to its record (RecordCodec). */
    String manifests(RepositoryName repository) {
        return repository(repository, "manifests");
    }

    /** Hash: tag to manifest digest. */
    String tags(RepositoryName repository) {
        return repository(repository, "tags");
    }

    /** Sorted set of tag names, all with score 0, for lexical paging (ZRANGEBYLEX). */
    String tagNames(RepositoryName repository) {
        return repository(repository, "tag-names");
    }

    /** Hash: referrer digest to its descriptor, for one subject. */
    String referrers(RepositoryName repository, Digest subject) {
        return repository(repository, "referrers:" + subject);
    }

    /** Set of the subjects a manifest refers to, so deleting the manifest finds its referrer entries. */
    String subjects(RepositoryName repository, Digest referrer) {
        return repository(repository, "subjects:" + referrer);
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

    /** Present only while the index holds everything in the bucket (see IndexRebuild). */
    String indexComplete() {
        return namespace + ":index-complete";
    }

    /** Pattern matching every key of this namespace. */
    String all() {
        return namespace + ":*";
    }
}
