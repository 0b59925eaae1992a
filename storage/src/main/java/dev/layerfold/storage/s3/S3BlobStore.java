package dev.layerfold.storage.s3;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.blob.ListedBlob;
import dev.layerfold.storage.blob.UploadNotFoundException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Blobs in an S3-compatible bucket (layout in {@link BlobKeys}).
 *
 * <p><b>Uploads</b> go to an S3 multipart upload created with the first full part. Every append
 * gathers the previous tail plus the new bytes into parts of exactly {@code partSize} bytes, uploads
 * each full part, and ends by rewriting the upload's record object with the new part list and the
 * remaining tail (see {@link UploadRecord}). Chunks smaller than S3's part minimum therefore wait
 * durably in the bucket, any process can take the next append, and an append that fails halfway
 * changes nothing. The next part is gathered while the previous ones upload, so an append holds at
 * most {@value #PARTS_IN_FLIGHT} parts plus the one being filled in memory, never a whole blob.
 *
 * <p><b>Publishing</b> a small upload (no full part yet: manifests, configs, small layers) writes its
 * bytes straight to the blob's key in one PUT. A large upload is completed <em>in place</em>: S3
 * assembles the parts into {@code blob-data/<upload id>} without moving a byte, and an empty pointer
 * object at the blob's key names that body and its size. The alternative, CopyObject or
 * UploadPartCopy into the content-addressed key, makes S3 copy the whole layer again (seconds to
 * minutes for large layers, and double the write cost) just to give it a nicer name; the pointer
 * costs one small PUT on publish and the HEAD that every read does anyway. Either way the blob's key
 * appears in one PUT, so readers see the whole blob or nothing. The pointer is written with
 * {@code If-None-Match: *}: the first publisher of a digest wins and the others delete their bodies.
 * Servers that ignore conditional writes overwrite instead; the HEAD after the PUT settles who won.
 *
 * <p><b>Crashes</b>: before completing a large upload its record is marked with the digest being
 * published, so a retried publish resumes and {@link #abortUpload} (called by the sweeper for
 * abandoned uploads) knows whether the body is already referenced. A multipart upload created by an
 * append that died before writing its record is named by no record; the sweep aborts those too.
 *
 * <p><b>Limitation</b>: S3 cannot read the parts of an incomplete multipart upload, so
 * {@link #openUpload} reads only the tail; callers keep the running hash state in the upload's
 * metadata instead of re-reading an upload.
 */
public final class S3BlobStore implements BlobStore {

    /** Metadata of a pointer object: the key of the blob's body. */
    static final String BODY = "layerfold-body";
    /** Metadata of a pointer object (the blob's size) and of an upload record (the upload's size). */
    static final String SIZE = "layerfold-size";
    /** Parts of one append uploading at once: enough to keep the connection busy while the next fills. */
    static final int PARTS_IN_FLIGHT = 2;
    /** About a megabyte of locations: the blobs being pulled right now. */
    private static final int RECENT_LOCATIONS = 8192;

    private final S3Bucket bucket;
    private final int partSize;
    private final boolean presignedRedirects;
    private final Cache<Digest, Location> recentLocations = Caffeine.newBuilder().maximumSize(RECENT_LOCATIONS).build();

    public S3BlobStore(S3Bucket bucket, int partSize, boolean presignedRedirects) {
        if (partSize < S3Settings.MINIMUM_PART_SIZE) {
            throw new IllegalArgumentException("part size " + partSize + " is below S3's minimum of "
                    + S3Settings.MINIMUM_PART_SIZE);
        }
        this.bucket = bucket;
        this.partSize = partSize;
        this.presignedRedirects = presignedRedirects;
    }

    public S3BlobStore(S3Bucket bucket, S3Settings settings) {
        this(bucket, settings.partSize(), settings.presignedRedirects());
    }

    /** Where a blob's bytes are: its own key (small blobs) or the body a pointer names (large ones). */
    private record Location(String key, long size) {
    }

    /**
     * Answers from where the blob was last seen, if it was: a blob's size never changes, so a pull
     * costs no HEAD after the first. A blob another process deleted since is still reported until the
     * read that follows finds it gone; only garbage collection deletes blobs.
     */
    @Override
    public Optional<Long> size(Digest digest) throws IOException {
        Location recent = recentLocations.getIfPresent(digest);
        return recent != null ? Optional.of(recent.size()) : locate(digest).map(Location::size);
    }

    /** Looks the blob up in the bucket (one HEAD) and remembers where it is for the reads that follow. */
    private Optional<Location> locate(Digest digest) throws IOException {
        String key = BlobKeys.blob(digest);
        Optional<Location> location = bucket.head(key).map(head -> {
            String body = head.metadata().get(BODY);
            return body == null
                    ? new Location(key, head.contentLength())
                    : new Location(body, Long.parseLong(head.metadata().get(SIZE)));
        });
        location.ifPresentOrElse(found -> recentLocations.put(digest, found), () -> recentLocations.invalidate(digest));
        return location;
    }

    /**
     * Reads where the blob was last seen, saving the HEAD in the usual size-then-open sequence. A
     * location stays right while the blob exists; once another process deletes the blob, the GET finds
     * nothing and the blob is looked up afresh.
     */
    /** Lists {@code blobs/}: a large blob's pointer carries the time it was published, as a small blob's bytes do. */
    @Override
    public List<ListedBlob> list(Optional<Digest> after, int limit) throws IOException {
        List<ListedBlob> listed = new ArrayList<>();
        for (S3Object object : bucket.list(BlobKeys.BLOBS, after.map(BlobKeys::blob).orElse(""), limit)) {
            BlobKeys.digestOf(object.key()).ifPresent(digest -> listed.add(new ListedBlob(digest, object.lastModified())));
        }
        return listed;
    }

    @Override
    public Optional<InputStream> open(Digest digest, long offset, long length) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        Location recent = recentLocations.getIfPresent(digest);
        if (recent != null) {
            Optional<InputStream> stream = read(recent, offset, length);
            if (stream.isPresent()) {
                return stream;
            }
            recentLocations.invalidate(digest);
        }
        Optional<Location> location = locate(digest);
        return location.isEmpty() ? Optional.empty() : read(location.get(), offset, length);
    }

    private Optional<InputStream> read(Location location, long offset, long length) throws IOException {
        long size = location.size();
        long from = Math.min(offset, size);
        long to = length < 0 || length >= size - from ? size : from + length;
        if (from == to) {
            return Optional.of(InputStream.nullInputStream()); // S3 answers an empty range with 416
        }
        return bucket.getRange(location.key(), from, to);
    }

    @Override
    public Optional<URI> directUrl(Digest digest, Duration validFor) throws IOException {
        if (!presignedRedirects) {
            return Optional.empty();
        }
        return locate(digest).map(location -> bucket.presignGet(location.key(), validFor));
    }

    @Override
    public boolean delete(Digest digest) throws IOException {
        Optional<Location> location = locate(digest);
        if (location.isEmpty()) {
            return false;
        }
        // The pointer first: once it is gone nobody resolves the body, which can then go too.
        bucket.delete(BlobKeys.blob(digest));
        recentLocations.invalidate(digest);
        if (!location.get().key().equals(BlobKeys.blob(digest))) {
            bucket.delete(location.get().key());
        }
        return true;
    }

    @Override
    public void startUpload(String uploadId) throws IOException {
        save(uploadId, UploadRecord.empty(partSize));
    }

    @Override
    public long append(String uploadId, InputStream data) throws IOException {
        UploadRecord record = load(uploadId);
        if (record.publishing() != null) {
            throw new IOException("upload " + uploadId + " is being published as " + record.publishing()
                    + " and takes no more bytes");
        }
        PartBuffer part = new PartBuffer(record.tail(), record.partSize());
        List<String> etags = new ArrayList<>(record.partEtags());
        String multipartId = record.multipartId();
        boolean createdHere = false;
        try {
            try (PartUploads uploads = new PartUploads(PARTS_IN_FLIGHT)) {
                int partNumber = etags.size();
                while (part.fillFrom(data)) {
                    if (multipartId == null) {
                        multipartId = createMultipart(uploadId);
                        createdHere = true;
                    }
                    String multipart = multipartId;
                    PartBuffer full = part;
                    int number = ++partNumber;
                    uploads.submit(full, () -> uploadPart(uploadId, multipart, number, full), etags::add);
                    part = uploads.nextPart(record.partSize());
                }
                uploads.awaitAll(etags::add);
            }
            long size = (long) etags.size() * record.partSize() + part.length();
            if (size != record.size()) {
                save(uploadId, new UploadRecord(size, record.partSize(), multipartId, etags, part.toByteArray(), null));
            }
            return size;
        } catch (IOException | RuntimeException e) {
            if (createdHere) {
                abortMultipartQuietly(uploadId, multipartId, e);
            }
            throw e;
        }
    }

    @Override
    public long uploadSize(String uploadId) throws IOException {
        HeadObjectResponse head = bucket.head(BlobKeys.upload(uploadId))
                .orElseThrow(() -> new UploadNotFoundException(uploadId));
        return Long.parseLong(head.metadata().get(SIZE));
    }

    /** False: S3 does not serve the parts of an unfinished multipart upload, only this store's tail. */
    @Override
    public boolean canReadUploads() {
        return false;
    }

    @Override
    public InputStream openUpload(String uploadId, long offset) throws IOException {
        UploadRecord record = load(uploadId);
        if (record.publishing() != null || offset < record.bytesInParts()) {
            throw new IOException("cannot read upload " + uploadId + " from offset " + offset + ": its first "
                    + record.bytesInParts() + " bytes are in S3 multipart parts, which S3 cannot read back "
                    + "before the upload completes; continue from the hash state saved with the upload");
        }
        int from = (int) Math.min(offset - record.bytesInParts(), record.tail().length);
        return new ByteArrayInputStream(record.tail(), from, record.tail().length - from);
    }

    @Override
    public void publish(String uploadId, Digest digest) throws IOException {
        UploadRecord record = load(uploadId);
        if (record.publishing() == null && locate(digest).isPresent()) {
            abortUpload(uploadId);
            return;
        }
        if (record.publishing() == null && !record.hasParts()) {
            // Same digest, same bytes: if a concurrent publisher got there first, its copy is as good.
            bucket.putIfAbsent(BlobKeys.blob(digest), record.tail(), Map.of());
            if (record.multipartId() != null) {
                abortMultipart(uploadId, record.multipartId());
            }
            bucket.delete(BlobKeys.upload(uploadId));
            return;
        }
        UploadRecord completing = record.publishing() != null ? record : markPublishing(uploadId, record, digest);
        completeInPlace(uploadId, completing);
        pointTo(digest, BlobKeys.body(uploadId), completing.size());
        bucket.delete(BlobKeys.upload(uploadId));
    }

    /**
     * Completes the multipart upload into the upload's body object, the only way S3 reads its parts back,
     * and hashes it before pointing the blob at it; a tail alone is hashed where it is.
     */
    @Override
    public Optional<Digest> publishIfDigest(String uploadId, Digest digest) throws IOException {
        UploadRecord record = load(uploadId);
        if (record.publishing() == null && !record.hasParts()) {
            Digest actual = Digest.of(digest.algorithm(), record.tail());
            if (!actual.equals(digest)) {
                return Optional.of(actual);
            }
            publish(uploadId, digest);
            return Optional.empty();
        }
        if (record.publishing() != null && !record.publishing().equals(digest)) {
            return Optional.of(record.publishing());
        }
        UploadRecord completing = record.publishing() != null ? record : markPublishing(uploadId, record, digest);
        completeInPlace(uploadId, completing);
        String body = BlobKeys.body(uploadId);
        Digest actual;
        try (InputStream in = bucket.getRange(body, 0, completing.size())
                .orElseThrow(() -> new IOException("the completed body of upload " + uploadId + " is gone"))) {
            actual = Digest.of(digest.algorithm(), in);
        }
        if (!actual.equals(digest)) {
            return Optional.of(actual); // abortUpload removes the body: no pointer names it
        }
        pointTo(digest, body, completing.size());
        bucket.delete(BlobKeys.upload(uploadId));
        return Optional.empty();
    }

    /** Uploads the tail as the last part and records the digest, so a crash from here on can be resumed. */
    private UploadRecord markPublishing(String uploadId, UploadRecord record, Digest digest) throws IOException {
        List<String> etags = new ArrayList<>(record.partEtags());
        if (record.tail().length > 0) {
            PartBuffer last = new PartBuffer(record.tail(), record.partSize());
            etags.add(uploadPart(uploadId, record.multipartId(), etags.size() + 1, last));
        }
        UploadRecord completing = new UploadRecord(record.size(), record.partSize(), record.multipartId(), etags,
                new byte[0], digest);
        save(uploadId, completing);
        return completing;
    }

    private void completeInPlace(String uploadId, UploadRecord record) throws IOException {
        String body = BlobKeys.body(uploadId);
        List<CompletedPart> parts = new ArrayList<>(record.partEtags().size());
        for (int i = 0; i < record.partEtags().size(); i++) {
            parts.add(CompletedPart.builder().partNumber(i + 1).eTag(record.partEtags().get(i)).build());
        }
        try {
            bucket.client().completeMultipartUpload(request -> request.bucket(bucket.name()).key(body)
                    .uploadId(record.multipartId()).multipartUpload(upload -> upload.parts(parts)));
        } catch (NoSuchUploadException e) {
            // Completed by an earlier attempt that died before writing the pointer: the body is there.
            if (bucket.head(body).isEmpty()) {
                throw new IOException("multipart upload of " + uploadId + " is gone before it completed "
                        + "(aborted by a bucket lifecycle rule?); push the blob again", e);
            }
        } catch (SdkException e) {
            throw bucket.failure("complete the multipart upload of", body, e);
        }
    }

    private void pointTo(Digest digest, String body, long size) throws IOException {
        bucket.putIfAbsent(BlobKeys.blob(digest), new byte[0], Map.of(BODY, body, SIZE, Long.toString(size)));
        boolean won = locate(digest).map(location -> location.key().equals(body)).orElse(false);
        if (!won) {
            bucket.delete(body);
        }
    }

    @Override
    public void abortUpload(String uploadId) throws IOException {
        Optional<UploadRecord> found = tryLoad(uploadId);
        if (found.isEmpty()) {
            return;
        }
        UploadRecord record = found.get();
        if (record.multipartId() != null) {
            abortMultipart(uploadId, record.multipartId());
        }
        if (record.publishing() != null) {
            String body = BlobKeys.body(uploadId);
            boolean referenced = locate(record.publishing()).map(location -> location.key().equals(body)).orElse(false);
            if (!referenced) {
                bucket.delete(body);
            }
        }
        bucket.delete(BlobKeys.upload(uploadId));
    }

    /**
     * Aborts every upload whose record has not changed since {@code cutoff} and returns their ids,
     * then every multipart upload started before {@code cutoff} that no record names: those of appends
     * that died before writing their record. Run it from one process at a time (under a lease).
     */
    @Override
    public List<String> abortUploadsIdleSince(Instant cutoff) throws IOException {
        List<String> aborted = new ArrayList<>();
        try {
            for (S3Object object : bucket.list(BlobKeys.UPLOADS)) {
                if (object.lastModified().isBefore(cutoff)) {
                    String uploadId = BlobKeys.uploadIdOf(object.key());
                    abortUpload(uploadId);
                    aborted.add(uploadId);
                }
            }
            for (MultipartUpload multipart : bucket.client().listMultipartUploadsPaginator(request -> request
                    .bucket(bucket.name()).prefix(BlobKeys.BODIES)).uploads()) {
                if (multipart.initiated().isBefore(cutoff) && !isRecorded(multipart)) {
                    abortMultipart(BlobKeys.uploadIdOf(multipart.key()), multipart.uploadId());
                }
            }
        } catch (SdkException e) {
            throw bucket.failure("list the uploads in", BlobKeys.UPLOADS, e);
        }
        return aborted;
    }

    private boolean isRecorded(MultipartUpload multipart) throws IOException {
        return tryLoad(BlobKeys.uploadIdOf(multipart.key()))
                .map(record -> multipart.uploadId().equals(record.multipartId())).orElse(false);
    }

    private UploadRecord load(String uploadId) throws IOException {
        return tryLoad(uploadId).orElseThrow(() -> new UploadNotFoundException(uploadId));
    }

    private Optional<UploadRecord> tryLoad(String uploadId) throws IOException {
        return bucket.getSmall(BlobKeys.upload(uploadId)).map(bytes -> UploadRecord.decode(bytes.asByteArrayUnsafe()));
    }

    private void save(String uploadId, UploadRecord record) throws IOException {
        bucket.put(BlobKeys.upload(uploadId), record.encode(), Map.of(SIZE, Long.toString(record.size())));
    }

    private String createMultipart(String uploadId) throws IOException {
        String body = BlobKeys.body(uploadId);
        try {
            return bucket.client().createMultipartUpload(request -> request.bucket(bucket.name()).key(body)).uploadId();
        } catch (SdkException e) {
            throw bucket.failure("start a multipart upload to", body, e);
        }
    }

    private String uploadPart(String uploadId, String multipartId, int partNumber, PartBuffer part) throws IOException {
        String body = BlobKeys.body(uploadId);
        try {
            return bucket.client().uploadPart(request -> request.bucket(bucket.name()).key(body).uploadId(multipartId)
                            .partNumber(partNumber).contentLength((long) part.length()),
                    RequestBody.fromInputStream(part.stream(), part.length())).eTag();
        } catch (SdkException e) {
            throw bucket.failure("upload part " + partNumber + " of", body, e);
        }
    }

    private void abortMultipart(String uploadId, String multipartId) throws IOException {
        String body = BlobKeys.body(uploadId);
        try {
            bucket.client().abortMultipartUpload(request -> request.bucket(bucket.name()).key(body).uploadId(multipartId));
        } catch (NoSuchUploadException alreadyGone) {
            // aborted or completed before
        } catch (SdkException e) {
            throw bucket.failure("abort the multipart upload to", body, e);
        }
    }

    /** Where another failure is already on its way: a leftover multipart upload only costs storage. */
    private void abortMultipartQuietly(String uploadId, String multipartId, Exception primary) {
        try {
            abortMultipart(uploadId, multipartId);
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }
}
