package dev.layerfold.registry.upload;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.gc.CollectorFence;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Upload sessions: their bytes live in the {@link BlobStore}, their bookkeeping in the
 * {@link MetadataStore}, so any registry process can continue an upload another one started. A blob
 * becomes visible (published and linked into the repository) only once its digest was verified.
 */
@Service
class UploadService {

    /** Ids this registry hands out are UUIDs; anything outside this shape is not one of ours. */
    /** How many repositories a mount without {@code from} looks through for the blob. */
    static final int MOUNT_SEARCH_LIMIT = 1000;
    private static final int MOUNT_SEARCH_BATCH = 100;

    private static final Pattern UPLOAD_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final BlobStore blobs;
    /** Whether a blob exists for a mount: intact or deduplicated alike. */
    private final BlobContent content;
    private final MetadataStore metadata;
    private final UploadHasher hasher;
    private final CollectorFence fence;
    private final UploadClaims claims;
    private final Clock clock;

    @Autowired
    UploadService(BlobStore blobs, BlobContent content, MetadataStore metadata, UploadHasher hasher, CollectorFence fence) {
        this(blobs, content, metadata, hasher, fence, UploadClaims.LIFETIME);
    }

    UploadService(BlobStore blobs, BlobContent content, MetadataStore metadata, UploadHasher hasher, CollectorFence fence,
                  Duration claimLifetime) {
        this.blobs = blobs;
        this.content = content;
        this.metadata = metadata;
        this.hasher = hasher;
        this.fence = fence;
        this.clock = Clock.systemUTC();
        this.claims = new UploadClaims(metadata, claimLifetime, clock);
    }

    /** Opens an empty upload session for the repository, hashed in SHA-256 as it arrives, and returns its id. */
    String start(RepositoryName repository) throws IOException {
        return open(repository, Digest.Algorithm.SHA256).id();
    }

    /** Opens an empty upload session whose bytes are hashed in {@code algorithm} as they arrive, and returns its id. */
    String start(RepositoryName repository, Digest.Algorithm algorithm) throws IOException {
        return open(repository, algorithm).id();
    }

    private UploadState open(RepositoryName repository, Digest.Algorithm algorithm) throws IOException {
        String id = UploadIds.newId(algorithm);
        blobs.startUpload(id);
        var now = clock.instant();
        UploadState state = new UploadState(id, repository, 0, new byte[0], now, now);
        metadata.createUpload(state);
        return state;
    }

    /** Bytes received so far. */
    long size(RepositoryName repository, String uploadId) throws IOException {
        requireUpload(repository, uploadId);
        return blobs.uploadSize(uploadId);
    }

    /**
     * Appends a chunk. With a {@code Content-Range}, the chunk must start where the upload ends
     * (else 416 with the current range) and be exactly as long as announced.
     */
    long append(RepositoryName repository, String uploadId, Optional<ContentRange> range, InputStream body)
            throws IOException {
        try (UploadClaims.Claim claim = claim(repository, uploadId)) {
            UploadHasher.Appended appended = appendChunk(claim.state(), range, body, Set.of());
            recordProgress(claim, appended);
            return appended.size();
        }
    }

    /**
     * Closes the upload, with an optional final chunk: verifies every digest the client gave, then
     * publishes the blob under the first and links it into the repository. A digest mismatch
     * discards the upload and stores nothing.
     */
    Digest complete(RepositoryName repository, String uploadId, List<Digest> expected,
                    Optional<ContentRange> range, Optional<InputStream> finalChunk) throws IOException {
        try (UploadClaims.Claim claim = claim(repository, uploadId)) {
            return close(claim.state(), Optional.of(claim), expected, range, finalChunk);
        }
    }

    /** A whole blob in one request: a session that lives only as long as the request, known to no one else. */
    Digest pushWhole(RepositoryName repository, Digest expected, InputStream body) throws IOException {
        UploadState state = open(repository, expected.algorithm());
        boolean published = false;
        try {
            Digest digest = close(state, Optional.empty(), List.of(expected), Optional.empty(), Optional.of(body));
            published = true;
            return digest;
        } finally {
            if (!published) {
                discard(state.id());
            }
        }
    }

    /** Closes an upload this request alone writes: claimed, or never shown to a client. */
    private Digest close(UploadState state, Optional<UploadClaims.Claim> claim, List<Digest> expected,
                         Optional<ContentRange> range, Optional<InputStream> finalChunk) throws IOException {
        String uploadId = state.id();
        long size = finalChunk.isPresent()
                ? appendChunk(state, range, finalChunk.get(), algorithmsOf(expected)).size()
                : blobs.uploadSize(uploadId);
        List<Digest> checkedByStore = expected.stream()
                .filter(digest -> !hasher.canDigest(state, size, digest.algorithm())).toList();
        if (!checkedByStore.isEmpty() && expected.size() > 1) {
            discard(uploadId);
            throw RegistryException.of(ErrorCode.UNSUPPORTED, "this registry's storage checks a " + checkedByStore.getFirst()
                    .algorithm().prefix() + " digest of an upload sent in several requests only if it is the one digest "
                    + "given; close the upload with ?digest= once").withStatus(HttpStatus.BAD_REQUEST);
        }
        for (Digest digest : expected) {
            if (!checkedByStore.contains(digest)) {
                requireDigest(uploadId, size, digest, hasher.digest(state, size, digest.algorithm()));
            }
        }
        Digest digest = expected.getFirst();
        if (claim.isPresent() && !claim.get().stillHeld()) {
            throw claimedElsewhere(state.repository(), uploadId);
        }
        fence.touchBeforePublishing(state.repository(), digest);
        if (checkedByStore.isEmpty()) {
            blobs.publish(uploadId, digest);
        } else {
            Optional<Digest> mismatch = blobs.publishIfDigest(uploadId, digest);
            if (mismatch.isPresent()) {
                requireDigest(uploadId, size, digest, mismatch.get());
            }
        }
        metadata.linkBlob(state.repository(), digest);
        metadata.deleteUpload(uploadId);
        hasher.forget(uploadId);
        return digest;
    }

    void cancel(RepositoryName repository, String uploadId) throws IOException {
        requireUpload(repository, uploadId);
        discard(uploadId);
    }

    /**
     * Links an existing blob into the repository without uploading it, when {@code from} (or, without
     * it, one of the first {@value #MOUNT_SEARCH_LIMIT} repositories) holds it as a blob and the caller
     * may pull from there. A digest that is only a manifest elsewhere is never mounted. False if there
     * is nothing to mount; the client then uploads the blob.
     */
    boolean mount(RepositoryName repository, Digest digest, Optional<RepositoryName> from,
                  Predicate<RepositoryName> mayPull) throws IOException {
        if (content.size(digest).isEmpty()) {
            return false;
        }
        boolean readable = from.isPresent()
                ? mayPull.test(from.get()) && metadata.hasBlob(from.get(), digest)
                : readableRepositoryHolding(digest, mayPull).isPresent();
        // A blob the collector is deleting is not mounted: the client uploads it, after the delete.
        if (!readable || !fence.touchUnlessCondemned(repository, digest)) {
            return false;
        }
        metadata.linkBlob(repository, digest);
        return true;
    }

    /**
     * A repository the caller may pull that holds the blob. Nothing indexes blobs by digest across
     * repositories, so the search is bounded; beyond it the client uploads, which is always correct.
     */
    private Optional<RepositoryName> readableRepositoryHolding(Digest digest, Predicate<RepositoryName> mayPull) throws IOException {
        Optional<RepositoryName> after = Optional.empty();
        for (int searched = 0; searched < MOUNT_SEARCH_LIMIT; ) {
            List<RepositoryName> batch = metadata.repositories(after, MOUNT_SEARCH_BATCH);
            for (RepositoryName candidate : batch) {
                if (mayPull.test(candidate) && metadata.hasBlob(candidate, digest)) {
                    return Optional.of(candidate);
                }
            }
            searched += batch.size();
            if (batch.size() < MOUNT_SEARCH_BATCH) {
                break;
            }
            after = Optional.of(batch.getLast());
        }
        return Optional.empty();
    }

    /**
     * Records the new size with the hash state covering it (which lets another process continue the
     * upload) and, above all, the time: an upload whose state looks idle is cleaned up. The
     * compare-and-set fails only if the upload was cancelled, swept, or its claim lapsed and was taken.
     */
    private void recordProgress(UploadClaims.Claim claim, UploadHasher.Appended appended) throws IOException {
        UploadState state = claim.state();
        var next = new UploadState(state.id(), state.repository(), appended.size(), appended.hashState(),
                state.startedAt(), clock.instant());
        if (!metadata.advanceUpload(next, state.size(), claim.token())) {
            requireUpload(state.repository(), state.id());
            throw claimedElsewhere(state.repository(), state.id());
        }
    }

    /** {@code closingWith}: the algorithms of the digests a final chunk closes the upload with. */
    private UploadHasher.Appended appendChunk(UploadState state, Optional<ContentRange> range, InputStream body,
                                              Set<Digest.Algorithm> closingWith) throws IOException {
        long size = blobs.uploadSize(state.id());
        if (range.isEmpty()) {
            return hasher.append(state, size, body, closingWith);
        }
        if (range.get().first() != size) {
            throw outOfOrder(state.repository(), state.id(), size, "the chunk starts at byte " + range.get().first()
                    + " but the upload holds " + size + " bytes; send the chunk starting at byte " + size);
        }
        return hasher.append(state, size, new ExactLengthInputStream(body, range.get().length()), closingWith);
    }

    /** An upload whose bytes are not what the client said is of no use any more, so it is discarded. */
    private void requireDigest(String uploadId, long size, Digest expected, Digest actual) throws IOException {
        if (!actual.equals(expected)) {
            discard(uploadId);
            throw RegistryException.of(ErrorCode.DIGEST_INVALID, "the " + size + " bytes uploaded have digest "
                            + actual + ", not " + expected + "; the upload was discarded, push the blob again",
                    Map.of("expected", expected.toString(), "actual", actual.toString()));
        }
    }

    private static Set<Digest.Algorithm> algorithmsOf(List<Digest> digests) {
        return digests.stream().map(Digest::algorithm).collect(Collectors.toUnmodifiableSet());
    }

    private UploadState requireUpload(RepositoryName repository, String uploadId) throws IOException {
        if (!UPLOAD_ID.matcher(uploadId).matches()) {
            throw unknownUpload(repository, uploadId);
        }
        return metadata.upload(uploadId)
                .filter(state -> state.repository().equals(repository))
                .orElseThrow(() -> unknownUpload(repository, uploadId));
    }

    /** Makes this request the upload's only writer, across every registry process (see {@link UploadClaims}). */
    private UploadClaims.Claim claim(RepositoryName repository, String uploadId) throws IOException {
        Optional<UploadClaims.Claim> claim = claims.claim(() -> requireUpload(repository, uploadId));
        if (claim.isEmpty()) {
            throw claimedElsewhere(repository, uploadId);
        }
        return claim.get();
    }

    private RegistryException claimedElsewhere(RepositoryName repository, String uploadId) throws IOException {
        return outOfOrder(repository, uploadId, blobs.uploadSize(uploadId), "another request is writing to this upload;"
                + " wait for it to finish, then continue from the Range");
    }

    private void discard(String uploadId) throws IOException {
        hasher.forget(uploadId);
        blobs.abortUpload(uploadId);
        metadata.deleteUpload(uploadId);
    }

    static RegistryException outOfOrder(RepositoryName repository, String uploadId, long size, String message) {
        return RegistryException.of(ErrorCode.BLOB_UPLOAD_INVALID, message, Map.of("size", size))
                .withStatus(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
                .withHeader("Location", UploadHandler.location(repository, uploadId))
                .withHeader("Range", UploadHandler.range(size))
                .withHeader("Docker-Upload-UUID", uploadId);
    }

    private static RegistryException unknownUpload(RepositoryName repository, String uploadId) {
        return RegistryException.of(ErrorCode.BLOB_UPLOAD_UNKNOWN, "no upload " + uploadId + " in repository "
                + repository + " (never started, completed, or cancelled); start a new one with POST /v2/"
                + repository + "/blobs/uploads/");
    }
}
