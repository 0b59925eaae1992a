package dev.layerfold.registry.upload;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Hashes upload bytes as they stream into the store (on another core, see {@link HashAhead}), so
 * closing an upload of many GB costs nothing extra. The running hash is in the algorithm the upload id
 * names ({@link UploadIds}; SHA-256 unless the client asked for another with {@code ?digest-algorithm=}),
 * kept in this process's memory, keyed by upload id together with the byte count it covers. When it is missing or covers a different count (the upload was continued by
 * another process, this one restarted, or a PATCH failed half-way) it is recovered in one of two ways:
 * <ul>
 *   <li>where the store can read an unfinished upload back, by re-hashing its bytes; the running hash is
 *       then the JDK's, which uses the CPU's SHA instructions;</li>
 *   <li>where it cannot (S3 multipart parts), from the hash state saved with the upload's metadata after
 *       every append ({@link Appended#hashState()}); the running hash is then a {@link ResumableHash}.</li>
 * </ul>
 * Digests in another algorithm than the running one are computed on demand by re-reading the upload;
 * where the store cannot do that, uploads sent in one request are hashed in those algorithms as they
 * arrive, and others are checked by the store as it publishes them ({@link BlobStore#publishIfDigest}).
 */
@Component
class UploadHasher {

    private static final int REHASH_BUFFER_SIZE = 256 * 1024;

    /**
     * Abandoned uploads leave their running hash behind; past this many, the least used are dropped.
     * Dropping one is always safe: it is recovered as above if the upload resumes.
     */
    private static final int MAX_RUNNING_HASHES = 10_000;

    /** What an append left: the upload's new size and the hash state to save with it (may be empty). */
    record Appended(long size, byte[] hashState) {
    }

    /**
     * The running hash covering the first {@code size} bytes of an upload, with the upload's digests in
     * other algorithms when it arrived whole in one request.
     */
    private record HeldHash(RunningHash running, long size, Map<Digest.Algorithm, Digest> wholeDigests) {
    }

    private final BlobStore blobs;
    private final MemoryBudget memory;
    private final boolean resumable;
    private final ConcurrentMap<String, HeldHash> running;

    @Autowired
    UploadHasher(BlobStore blobs, MemoryBudget memory) {
        this(blobs, memory, MAX_RUNNING_HASHES);
    }

    UploadHasher(BlobStore blobs, MemoryBudget memory, int maxRunningHashes) {
        this.blobs = blobs;
        this.memory = memory;
        this.resumable = !blobs.canReadUploads();
        // Evictions run on the writing thread: a few per many appends, and no pool to wait for.
        this.running = Caffeine.newBuilder().maximumSize(maxRunningHashes).executor(Runnable::run)
                .<String, HeldHash>build().asMap();
    }

    /**
     * Appends {@code data} to the upload, currently {@code size} bytes long, hashing it on the way.
     * {@code closingWith} are the algorithms of the digests the request closes the upload with (none
     * for a PATCH). The caller serialises appends to one upload.
     *
     * @param saved the upload's state as last saved, to recover its hash from
     */
    Appended append(UploadState saved, long size, InputStream data, Set<Digest.Algorithm> closingWith)
            throws IOException {
        String uploadId = saved.id();
        RunningHash running = runningAt(saved, size);
        // Stores undo a failed append, so the state before it is what a retry continues from.
        RunningHash before = running.copy();
        Map<Digest.Algorithm, RunningHash> whole = size == 0 && resumable ? otherHashes(closingWith, running.algorithm()) : Map.of();
        List<RunningHash> hashes = new ArrayList<>(whole.values());
        hashes.add(running);
        long newSize;
        HashingInputStream hashing;
        try (HashAhead hashAhead = new HashAhead(hashes, memory)) {
            hashing = new HashingInputStream(data, hashAhead);
            try {
                newSize = blobs.append(uploadId, hashing);
                hashAhead.await();
            } catch (IOException | RuntimeException e) {
                keep(uploadId, before, size, Map.of());
                throw e;
            }
        }
        if (newSize != size + hashing.count) {
            return new Appended(newSize, new byte[0]); // someone else appended too: no state covers this
        }
        byte[] state = running.encodedState();
        keep(uploadId, running, newSize, finish(whole));
        return new Appended(newSize, state);
    }

    /**
     * Whether {@link #digest} can tell the upload's digest in {@code algorithm}. It cannot for another
     * algorithm than the running one on a store that cannot read unfinished uploads back (S3 parts),
     * unless the upload came in one request: then only the store can check it, once the upload is whole
     * ({@link BlobStore#publishIfDigest}).
     */
    boolean canDigest(UploadState saved, long size, Digest.Algorithm algorithm) {
        if (!resumable || algorithm == UploadIds.runningAlgorithm(saved.id())) {
            return true;
        }
        HeldHash held = running.get(saved.id());
        return held != null && held.size() == size && held.wholeDigests().containsKey(algorithm);
    }

    /**
     * The digest, in {@code algorithm}, of the first {@code size} bytes of the upload; only where
     * {@link #canDigest} says so.
     *
     * @param saved the upload's state as last saved, to recover its hash from
     */
    Digest digest(UploadState saved, long size, Digest.Algorithm algorithm) throws IOException {
        if (!canDigest(saved, size, algorithm)) {
            throw new IllegalStateException("upload " + saved.id() + " cannot be hashed in " + algorithm.prefix() + " here");
        }
        HeldHash held = running.get(saved.id());
        boolean current = held != null && held.size() == size;
        if (algorithm == UploadIds.runningAlgorithm(saved.id())) {
            return current ? held.running().copy().finish() : runningAt(saved, size).finish();
        }
        if (current && held.wholeDigests().containsKey(algorithm)) {
            return held.wholeDigests().get(algorithm);
        }
        return rehash(saved.id(), size, new JdkHash(algorithm)).finish();
    }

    /** Drops the running hash of an upload that was published or cancelled. */
    void forget(String uploadId) {
        running.remove(uploadId);
    }

    private void keep(String uploadId, RunningHash hash, long size, Map<Digest.Algorithm, Digest> wholeDigests) {
        running.put(uploadId, new HeldHash(hash, size, wholeDigests));
    }

    /** Takes the running hash out of the map: a failed append must not leave a stale one behind. */
    private RunningHash runningAt(UploadState saved, long size) throws IOException {
        HeldHash held = running.remove(saved.id());
        if (held != null && held.size() == size) {
            return held.running();
        }
        Digest.Algorithm algorithm = UploadIds.runningAlgorithm(saved.id());
        if (!resumable) {
            return rehash(saved.id(), size, new JdkHash(algorithm));
        }
        if (size == 0) {
            return new ResumableHash(algorithm);
        }
        if (saved.size() != size || saved.hashState().length == 0) {
            throw RegistryException.of(ErrorCode.BLOB_UPLOAD_INVALID, "upload " + saved.id() + " holds " + size
                    + " bytes but its saved hash state covers " + (saved.hashState().length == 0 ? "none" : saved.size())
                    + " of them, and this registry's storage cannot read an unfinished upload back to hash it; "
                    + "push the blob again in a new upload", Map.of("size", size));
        }
        return ResumableHash.restore(algorithm, saved.hashState());
    }

    private RunningHash rehash(String uploadId, long size, RunningHash hash) throws IOException {
        try (InputStream in = blobs.openUpload(uploadId, 0)) {
            byte[] buffer = new byte[REHASH_BUFFER_SIZE];
            for (long remaining = size; remaining > 0; ) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (read < 0) {
                    throw new IOException("upload " + uploadId + " holds fewer than the " + size + " bytes recorded");
                }
                hash.update(buffer, 0, read);
                remaining -= read;
            }
        }
        return hash;
    }

    private static Map<Digest.Algorithm, RunningHash> otherHashes(Set<Digest.Algorithm> algorithms, Digest.Algorithm runningAlgorithm) {
        Map<Digest.Algorithm, RunningHash> hashes = new EnumMap<>(Digest.Algorithm.class);
        algorithms.stream()
                .filter(algorithm -> algorithm != runningAlgorithm)
                .forEach(algorithm -> hashes.put(algorithm, new JdkHash(algorithm)));
        return hashes;
    }

    private static Map<Digest.Algorithm, Digest> finish(Map<Digest.Algorithm, RunningHash> hashes) {
        Map<Digest.Algorithm, Digest> digests = new EnumMap<>(Digest.Algorithm.class);
        hashes.forEach((algorithm, hash) -> digests.put(algorithm, hash.finish()));
        return digests;
    }

    private static final class HashingInputStream extends FilterInputStream {
        private final HashAhead hashes;
        private long count;

        HashingInputStream(InputStream in, HashAhead hashes) {
            super(in);
            this.hashes = hashes;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                update(new byte[] {(byte) b}, 0, 1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int read = super.read(buffer, offset, length);
            if (read > 0) {
                update(buffer, offset, read);
            }
            return read;
        }

        private void update(byte[] buffer, int offset, int length) throws InterruptedIOException {
            hashes.update(buffer, offset, length);
            count += length;
        }

        @Override
        public long skip(long n) {
            return 0; // every byte must pass through the digest
        }
    }
}
