package dev.layerfold.storage.blob;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A published blob's content as clients see it, however it is kept: intact in the {@link BlobStore},
 * or deduplicated and rebuilt on demand (and later, served from a cache tier). The registry API
 * decides whether a blob exists and serves its bytes only through this seam, so that thinning a
 * layer changes nothing a client can observe.
 */
public interface BlobContent {

    /** Size in bytes of the blob, or empty if it is neither stored intact nor rebuildable. */
    Optional<Long> size(Digest digest) throws IOException;

    /**
     * Streams {@code length} bytes from {@code offset} ({@code length < 0}: to the end), or empty if
     * the blob does not exist. A stream that cannot deliver the exact bytes fails with an
     * {@link IOException} before its last byte, never ends early or with other bytes.
     */
    Optional<InputStream> open(Digest digest, long offset, long length) throws IOException;

    /** A presigned URL for an intact blob, where the store offers one; see {@link BlobStore#directUrl}. */
    Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException;

    /** The local file of an intact blob, where the store keeps one; see {@link BlobStore#localFile}. */
    Optional<Path> localFile(Digest digest) throws IOException;

    /** Content kept only intact: the blob store as it is. */
    static BlobContent intact(BlobStore blobs) {
        return new BlobContent() {
            @Override
            public Optional<Long> size(Digest digest) throws IOException {
                return blobs.size(digest);
            }

            @Override
            public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
                return blobs.open(digest, offset, length);
            }

            @Override
            public Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException {
                return blobs.directUrl(digest, validFor);
            }

            @Override
            public Optional<Path> localFile(Digest digest) throws IOException {
                return blobs.localFile(digest);
            }
        };
    }
}
