package dev.layerfold.registry.blob;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Blobs as a repository sees them: bytes are shared across repositories, but a repository serves
 * only the blobs pushed or mounted into it, so a digest known elsewhere is still unknown here.
 */
@Service
class RepositoryBlobs {

    /** How long a presigned download URL stays valid: long enough for a slow pull to start. */
    private static final Duration DIRECT_URL_VALIDITY = Duration.ofMinutes(20);

    private final BlobContent blobs;
    private final MetadataStore metadata;

    RepositoryBlobs(BlobContent blobs, MetadataStore metadata) {
        this.blobs = blobs;
        this.metadata = metadata;
    }

    /** The blob's size, if the repository may serve it and its bytes exist. */
    Optional<Long> size(RepositoryName repository, Digest digest) throws IOException {
        return metadata.hasBlob(repository, digest) ? blobs.size(digest) : Optional.empty();
    }

    /** Where the client may fetch the bytes itself, for stores that hand out presigned URLs. */
    Optional<URI> directUrl(Digest digest) throws IOException {
        return blobs.directUrl(digest, DIRECT_URL_VALIDITY);
    }

    /** The file holding the bytes, for stores that keep blobs as local files. */
    Optional<Path> localFile(Digest digest) throws IOException {
        return blobs.localFile(digest);
    }

    Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        return blobs.open(digest, offset, length);
    }

    /** Removes the blob from the repository only; its bytes stay for other repositories (and for GC). */
    boolean unlink(RepositoryName repository, Digest digest) throws IOException {
        return metadata.unlinkBlob(repository, digest);
    }
}
