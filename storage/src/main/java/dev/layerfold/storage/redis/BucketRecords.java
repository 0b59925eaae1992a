package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.s3.S3Bucket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The metadata's system of record: one small object per fact, in the same bucket as the blobs.
 * <pre>
 * metadata/repositories/&lt;repository&gt;/_blobs/&lt;alg&gt;/&lt;hex&gt;                          (empty)
 * metadata/repositories/&lt;repository&gt;/_manifests/&lt;alg&gt;/&lt;hex&gt;                      manifest record
 * metadata/repositories/&lt;repository&gt;/_tags/&lt;tag&gt;                                 manifest digest
 * metadata/repositories/&lt;repository&gt;/_referrers/&lt;alg&gt;/&lt;hex&gt;/&lt;alg&gt;/&lt;hex&gt;       descriptor
 * </pre>
 * Repository name components start with a letter or digit, so {@code /_} marks where the name ends,
 * as in the reference registry's layout. A record's key is also the name of the lease that
 * serialises its changes.
 */
final class BucketRecords {

    static final String ROOT = "metadata/repositories/";

    /** The distribution spec's tag grammar; it has no '/', so a tag is one key segment. */
    private static final Pattern TAG = Pattern.compile("[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}");

    private final S3Bucket bucket;

    BucketRecords(S3Bucket bucket) {
        this.bucket = bucket;
    }

    static String blob(RepositoryName repository, Digest digest) {
        return ROOT + repository + "/_blobs/" + path(digest);
    }

    static String manifest(RepositoryName repository, Digest digest) {
        return ROOT + repository + "/_manifests/" + path(digest);
    }

    static String tag(RepositoryName repository, String tag) {
        if (tag == null || !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("invalid tag '" + tag + "': up to 128 characters of [a-zA-Z0-9._-], "
                    + "not starting with '.' or '-'");
        }
        return ROOT + repository + "/_tags/" + tag;
    }

    static String referrer(RepositoryName repository, Digest subject, Digest referrer) {
        return ROOT + repository + "/_referrers/" + path(subject) + "/" + path(referrer);
    }

    private static String path(Digest digest) {
        return digest.algorithm().prefix() + "/" + digest.hex();
    }

    void put(String key, String body) throws IOException {
        bucket.put(key, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    void delete(String key) throws IOException {
        bucket.delete(key);
    }

    Optional<String> read(String key) throws IOException {
        return bucket.getSmall(key).map(bytes -> bytes.asUtf8String());
    }

    Iterable<S3Object> all() {
        return bucket.list(ROOT);
    }

    /** What a record key says, for rebuilding the index from a listing. */
    sealed interface Fact {
        RepositoryName repository();
    }

    record BlobLink(RepositoryName repository, Digest blob) implements Fact {
    }

    record ManifestLink(RepositoryName repository, Digest manifest) implements Fact {
    }

    record Tag(RepositoryName repository, String tag) implements Fact {
    }

    record Referrer(RepositoryName repository, Digest subject, Digest referrer) implements Fact {
    }

    /** The key of the record stating {@code fact}; the inverse of {@link #parse}. */
    static String key(Fact fact) {
        return switch (fact) {
            case BlobLink link -> blob(link.repository(), link.blob());
            case ManifestLink link -> manifest(link.repository(), link.manifest());
            case Tag tag -> tag(tag.repository(), tag.tag());
            case Referrer referrer -> referrer(referrer.repository(), referrer.subject(), referrer.referrer());
        };
    }

    /** Parses a record key; empty for keys this layout does not know (left alone). */
    static Optional<Fact> parse(String key) {
        if (!key.startsWith(ROOT)) {
            return Optional.empty();
        }
        String rest = key.substring(ROOT.length());
        int marker = rest.indexOf("/_");
        if (marker < 0) {
            return Optional.empty();
        }
        try {
            RepositoryName repository = RepositoryName.of(rest.substring(0, marker));
            String[] parts = rest.substring(marker + 2).split("/");
            return Optional.ofNullable(switch (parts[0]) {
                case "blobs" -> parts.length == 3 ? new BlobLink(repository, digest(parts[1], parts[2])) : null;
                case "manifests" -> parts.length == 3 ? new ManifestLink(repository, digest(parts[1], parts[2])) : null;
                case "tags" -> parts.length == 2 ? new Tag(repository, parts[1]) : null;
                case "referrers" -> parts.length == 5
                        ? new Referrer(repository, digest(parts[1], parts[2]), digest(parts[3], parts[4])) : null;
                default -> null;
            });
        } catch (IllegalArgumentException foreignKey) {
            return Optional.empty();
        }
    }

    private static Digest digest(String algorithm, String hex) {
        return Digest.parse(algorithm + ":" + hex);
    }
}
