package dev.layerfold.restore;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Blob content as clients see it: intact blobs from the store, deduplicated layers rebuilt (once across
 * the cluster, see {@link RestoreOnce}). The intact copy is asked first, since most blobs are intact and
 * it costs no rebuild; a layer thinned between a size check and the read (the dedup worker removed its
 * intact copy) is then rebuilt.
 */
public final class RestoringBlobContent implements BlobContent {

    private final BlobStore blobs;
    private final RestoreOnce restores;

    public RestoringBlobContent(BlobStore blobs, RestoreOnce restores) {
        this.blobs = blobs;
        this.restores = restores;
    }

    @Override
    public Optional<Long> size(Digest digest) throws IOException {
        Optional<Long> intact = blobs.size(digest);
        return intact.isPresent() ? intact : restores.size(digest);
    }

    @Override
    public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        Optional<InputStream> intact = blobs.open(digest, offset, length);
        return intact.isPresent() ? intact : restores.open(digest, offset, length);
    }

    @Override
    public Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException {
        // A presigned URL is made without asking the bucket; a thinned layer must not be redirected to nothing.
        Optional<URI> url = blobs.directUrl(digest, validFor);
        return url.isPresent() && blobs.size(digest).isPresent() ? url : Optional.empty();
    }

    @Override
    public Optional<Path> localFile(Digest digest) throws IOException {
        return blobs.localFile(digest);
    }
}
