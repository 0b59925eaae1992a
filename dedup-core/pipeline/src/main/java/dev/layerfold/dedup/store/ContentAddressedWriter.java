package dev.layerfold.dedup.store;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.UUID;

/**
 * Writes the pipeline's own objects (packs, layer records) as blobs named by their sha256, through
 * the same upload-and-publish path as pushed blobs: a reader never sees one partly written, and
 * writing the same bytes twice keeps one copy.
 */
public final class ContentAddressedWriter {

    private final BlobStore blobs;

    public ContentAddressedWriter(BlobStore blobs) {
        this.blobs = blobs;
    }

    /** Streams {@code content} into a new blob and returns its digest. */
    public Digest write(InputStream content) throws IOException {
        String uploadId = "dedup-" + UUID.randomUUID();
        MessageDigest sha256 = Digest.Algorithm.SHA256.newMessageDigest();
        blobs.startUpload(uploadId);
        boolean published = false;
        try {
            blobs.append(uploadId, new DigestInputStream(content, sha256));
            Digest digest = Digest.fromBytes(Digest.Algorithm.SHA256, sha256.digest());
            blobs.publish(uploadId, digest);
            published = true;
            return digest;
        } finally {
            if (!published) {
                blobs.abortUpload(uploadId);
            }
        }
    }

    public Digest write(byte[] content) throws IOException {
        return write(new ByteArrayInputStream(content));
    }
}
