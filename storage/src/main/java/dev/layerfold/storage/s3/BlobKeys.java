package dev.layerfold.storage.s3;

import dev.layerfold.storage.Digest;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The blob layout in the bucket:
 * <pre>
 * blobs/&lt;algorithm&gt;/&lt;hex&gt;   a blob: its bytes, or for a large blob an empty pointer naming its body
 * blob-data/&lt;upload id&gt;        the body of a large blob, completed in place from its multipart upload
 * uploads/&lt;upload id&gt;          an upload in progress (see UploadRecord)
 * </pre>
 */
final class BlobKeys {

    static final String BLOBS = "blobs/";
    static final String UPLOADS = "uploads/";
    static final String BODIES = "blob-data/";

    /** Upload ids become key segments: a UUID fits; slashes and oddities that would alias keys do not. */
    private static final Pattern UPLOAD_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private BlobKeys() {
    }

    static String blob(Digest digest) {
        return BLOBS + digest.algorithm().prefix() + "/" + digest.hex();
    }

    /** The digest a blob key names; empty for keys this layout does not know. */
    static Optional<Digest> digestOf(String key) {
        if (!key.startsWith(BLOBS)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Digest.parse(key.substring(BLOBS.length()).replaceFirst("/", ":")));
        } catch (IllegalArgumentException foreignKey) {
            return Optional.empty();
        }
    }

    static String body(String uploadId) {
        return BODIES + requireValid(uploadId);
    }

    static String upload(String uploadId) {
        return UPLOADS + requireValid(uploadId);
    }

    /** The upload id in an upload record's key or a body's key. */
    static String uploadIdOf(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    private static String requireValid(String uploadId) {
        if (uploadId == null || !UPLOAD_ID.matcher(uploadId).matches()) {
            throw new IllegalArgumentException("invalid upload id '" + uploadId + "': use 1 to 128 characters of "
                    + "[A-Za-z0-9._-], starting with a letter or digit (a UUID fits)");
        }
        return uploadId;
    }
}
