package dev.layerfold.registry.upload;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.blob.BlobStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Hashes upload bytes as they stream into the store, so closing an upload of many GB costs nothing
 * extra. The running SHA-256 (the JDK's, which uses the CPU's SHA extensions) is kept in this
 * process's memory, keyed by upload id together with the byte count it covers. When it is missing or
 * covers a different count (the upload was continued by another process, this one restarted, or a
 * PATCH failed half-way) it is re-derived by reading the upload's bytes back from the store.
 *
 * <p>This is the one place that knows how an upload's digest is obtained: a store shared by several
 * processes would persist a serialisable hash state here ({@code UploadState.hashState}).
 */
@Component
class UploadHasher {

    private static final int REHASH_BUFFER_SIZE = 256 * 1024;

    /**
     * Abandoned uploads leave their running hash behind; past this many, the oldest are dropped.
     * Dropping one is always safe: it is re-derived from the stored bytes if the upload resumes.
     */
    private static final int MAX_RUNNING_HASHES = 10_000;

    /** A running digest covering the first {@code size} bytes of an upload; {@code tick} orders them by age. */
    private record RunningHash(MessageDigest digest, long size, long tick) {
    }

    private final AtomicLong ticks = new AtomicLong();

    private final BlobStore blobs;
    private final int maxRunningHashes;
    private final ConcurrentMap<String, RunningHash> running = new ConcurrentHashMap<>();

    @Autowired
    UploadHasher(BlobStore blobs) {
        this(blobs, MAX_RUNNING_HASHES);
    }

    UploadHasher(BlobStore blobs, int maxRunningHashes) {
        this.blobs = blobs;
        this.maxRunningHashes = maxRunningHashes;
    }

    /**
     * Appends {@code data} to an upload currently {@code size} bytes long, hashing it on the way, and
     * returns the new size. The caller serialises appends to one upload.
     */
    long append(String uploadId, long size, InputStream data) throws IOException {
        MessageDigest sha256 = sha256At(uploadId, size);
        // Stores undo a failed append, so the state before it is what a retry continues from.
        MessageDigest before = copyOf(sha256);
        HashingInputStream hashing = new HashingInputStream(data, sha256);
        long newSize;
        try {
            newSize = blobs.append(uploadId, hashing);
        } catch (IOException | RuntimeException e) {
            if (before != null) {
                keep(uploadId, before, size);
            }
            throw e;
        }
        if (newSize == size + hashing.count) {
            keep(uploadId, sha256, newSize);
        }
        return newSize;
    }

    /** The digest, in {@code algorithm}, of the first {@code size} bytes of the upload. */
    Digest digest(String uploadId, long size, Digest.Algorithm algorithm) throws IOException {
        MessageDigest digest = algorithm == Digest.Algorithm.SHA256
                ? sha256At(uploadId, size)
                : rehash(uploadId, size, algorithm.newMessageDigest());
        return Digest.fromBytes(algorithm, digest.digest());
    }

    /** Drops the running hash of an upload that was published or cancelled. */
    void forget(String uploadId) {
        running.remove(uploadId);
    }

    private void keep(String uploadId, MessageDigest digest, long size) {
        running.put(uploadId, new RunningHash(digest, size, ticks.incrementAndGet()));
        if (running.size() > maxRunningHashes) {
            dropOldest();
        }
    }

    /** A copy of the digest state, or null where the provider cannot copy it (then a retry re-reads). */
    private static MessageDigest copyOf(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            return null;
        }
    }

    /** Drops the older half, so that the scan runs once per many appends rather than on each. */
    private void dropOldest() {
        long cutoff = ticks.get() - maxRunningHashes / 2;
        running.values().removeIf(hash -> hash.tick() < cutoff);
    }

    /** Takes the running hash out of the map: a failed append must not leave a stale one behind. */
    private MessageDigest sha256At(String uploadId, long size) throws IOException {
        RunningHash held = running.remove(uploadId);
        if (held != null && held.size() == size) {
            return held.digest();
        }
        return rehash(uploadId, size, Digest.Algorithm.SHA256.newMessageDigest());
    }

    private MessageDigest rehash(String uploadId, long size, MessageDigest digest) throws IOException {
        try (InputStream in = blobs.openUpload(uploadId, 0)) {
            byte[] buffer = new byte[REHASH_BUFFER_SIZE];
            for (long remaining = size; remaining > 0; ) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (read < 0) {
                    throw new IOException("upload " + uploadId + " holds fewer than the " + size + " bytes recorded");
                }
                digest.update(buffer, 0, read);
                remaining -= read;
            }
        }
        return digest;
    }

    private static final class HashingInputStream extends FilterInputStream {
        private final MessageDigest digest;
        private long count;

        HashingInputStream(InputStream in, MessageDigest digest) {
            super(in);
            this.digest = digest;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                digest.update((byte) b);
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int read = super.read(buffer, offset, length);
            if (read > 0) {
                digest.update(buffer, offset, read);
                count += read;
            }
            return read;
        }

        @Override
        public long skip(long n) {
            return 0; // every byte must pass through the digest
        }
    }
}
