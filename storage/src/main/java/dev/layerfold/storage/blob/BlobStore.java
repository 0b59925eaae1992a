package dev.layerfold.storage.blob;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Content-addressed blob storage (layers, configs, manifests) and the upload sessions that fill it.
 *
 * <p>The contract, checked for every implementation by {@code BlobStoreContract}:
 * <ul>
 *   <li>A blob is visible only after {@link #publish} and is immutable from then on; readers never
 *       see a partial blob, even if the process dies in the middle of a publish.</li>
 *   <li>Publishing a digest that already exists succeeds and keeps one copy (concurrent pushes of the
 *       same layer are normal).</li>
 *   <li>The store does not hash: callers digest the bytes as they stream them in and publish under the
 *       digest they verified. Nothing here buffers a whole blob in memory.</li>
 *   <li>Implementations are thread-safe, and safe across processes sharing the same backing store.
 *       Appends to one upload are serialised by the caller.</li>
 * </ul>
 */
public interface BlobStore {

    /** Size in bytes of a published blob, or empty if there is none. */
    Optional<Long> size(Digest digest) throws IOException;

    /**
     * Streams {@code length} bytes of a published blob starting at {@code offset}
     * ({@code length < 0} reads to the end), or empty if the blob does not exist.
     * A range reaching past the end stops at the end; an offset at or past the end yields no bytes.
     * The caller closes the stream.
     */
    Optional<InputStream> open(Digest digest, long offset, long length) throws IOException;

    /**
     * A URL a client may fetch the blob from directly (a presigned object-store URL), for stores that
     * offer one and are configured to. Empty means: serve the bytes through {@link #open}.
     */
    default Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException {
        return Optional.empty();
    }

    /**
     * The local file holding a published blob's bytes, for stores that keep blobs as files, so that the
     * web server can send it with the kernel's sendfile. Empty means: serve the bytes through
     * {@link #open}. The file holds exactly the blob's bytes and can still be opened for a while after
     * the blob is deleted: the web server opens it after the request's handler returns.
     */
    default Optional<Path> localFile(Digest digest) throws IOException {
        return Optional.empty();
    }

    /**
     * Up to {@code limit} published blobs whose digests, as text ({@code sha256:<hex>}), come after
     * {@code after}, in that order: a listing resumed from the last digest it returned goes on where it
     * stopped, also in another process. A blob published again while it exists may keep its first time.
     * For the collector's sweep of what no index knows; never on a request's path.
     */
    List<ListedBlob> list(Optional<Digest> after, int limit) throws IOException;

    /** Deletes a published blob; returns false if it did not exist. */
    boolean delete(Digest digest) throws IOException;

    /** Creates an empty upload. Upload ids are chosen by the caller and unique. */
    void startUpload(String uploadId) throws IOException;

    /**
     * Appends the whole of {@code data} to the upload and returns the upload's new size. All or
     * nothing: if reading {@code data} fails (a client disconnects), the upload keeps its previous size.
     *
     * @throws UploadNotFoundException if the upload does not exist (never started, published or aborted)
     */
    long append(String uploadId, InputStream data) throws IOException;

    /**
     * Bytes written to the upload so far: the authority on where a client resumes, also after the process
     * that appended them crashed. A store may leave appends unsynced until {@link #publish}; after a power
     * loss it reports what survived.
     */
    long uploadSize(String uploadId) throws IOException;

    /**
     * Reads the upload's bytes from {@code offset}, e.g. to re-derive its digest when the process that
     * held the running hash is gone.
     */
    InputStream openUpload(String uploadId, long offset) throws IOException;

    /**
     * Whether {@link #openUpload} can read back the bytes of an unfinished upload from any offset. Where
     * it cannot, callers save the running hash state with the upload's metadata instead.
     */
    default boolean canReadUploads() {
        return true;
    }

    /**
     * Atomically makes the upload's bytes visible as blob {@code digest} and removes the upload.
     * If the blob already exists, the upload is discarded and the existing blob kept.
     */
    void publish(String uploadId, Digest digest) throws IOException;

    /**
     * Publishes the upload as {@link #publish} does, but only if its bytes have digest {@code digest},
     * which the store checks by reading them back once they are whole: for a digest in an algorithm the
     * caller did not hash the upload in, on a store that cannot read an unfinished upload back. Even if
     * the blob exists already, the upload's own bytes are checked, so that no one links a blob without
     * having sent it. On a mismatch nothing is published, the caller discards the upload, and the
     * bytes' actual digest is returned.
     */
    default Optional<Digest> publishIfDigest(String uploadId, Digest digest) throws IOException {
        Digest actual;
        try (InputStream in = openUpload(uploadId, 0)) {
            actual = Digest.of(digest.algorithm(), in);
        }
        if (!actual.equals(digest)) {
            return Optional.of(actual);
        }
        publish(uploadId, digest);
        return Optional.empty();
    }

    /** Discards an upload; a no-op if it does not exist. */
    void abortUpload(String uploadId) throws IOException;

    /**
     * Discards every upload whose bytes were not touched since {@code cutoff}, including uploads no
     * metadata knows of (a crash between creating the bytes and recording the state), and returns
     * their ids. The caller removes the uploads' state.
     */
    List<String> abortUploadsIdleSince(Instant cutoff) throws IOException;
}
