package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.metadata.UploadState;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UploadHasherTest {

    private static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

    private static final byte[] FIRST = "first chunk, ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SECOND = "second chunk".getBytes(StandardCharsets.US_ASCII);
    private static final Set<Digest.Algorithm> NOT_CLOSING = Set.of();

    @TempDir
    Path root;

    @Test
    void digestCoversEveryAppendedChunk() throws Exception {
        FilesystemBlobStore blobs = new FilesystemBlobStore(root);
        UploadHasher hasher = new UploadHasher(blobs, UNLIMITED);
        blobs.startUpload("u1");

        long size = hasher.append(saved("u1"), 0, new ByteArrayInputStream(FIRST), NOT_CLOSING).size();
        size = hasher.append(saved("u1"), size, new ByteArrayInputStream(SECOND), NOT_CLOSING).size();

        assertThat(hasher.digest(saved("u1"), size, Digest.Algorithm.SHA256)).isEqualTo(Digest.sha256(concat(FIRST, SECOND)));
    }

    @Test
    void runningHashIsRederivedFromTheStoredBytesWhenAnotherWriterAppended() throws Exception {
        FilesystemBlobStore blobs = new FilesystemBlobStore(root);
        UploadHasher hasher = new UploadHasher(blobs, UNLIMITED);
        blobs.startUpload("u2");
        long size = hasher.append(saved("u2"), 0, new ByteArrayInputStream(FIRST), NOT_CLOSING).size();

        // Another process (or a restarted one) continued the upload: this process's hash covers too little.
        size = blobs.append("u2", new ByteArrayInputStream(SECOND));

        assertThat(hasher.digest(saved("u2"), size, Digest.Algorithm.SHA256)).isEqualTo(Digest.sha256(concat(FIRST, SECOND)));
    }

    @Test
    void freshProcessDerivesTheHashOfAnUploadItNeverSaw() throws Exception {
        FilesystemBlobStore blobs = new FilesystemBlobStore(root);
        blobs.startUpload("u3");
        long size = blobs.append("u3", new ByteArrayInputStream(FIRST));
        UploadHasher fresh = new UploadHasher(blobs, UNLIMITED);

        size = fresh.append(saved("u3"), size, new ByteArrayInputStream(SECOND), NOT_CLOSING).size();

        assertThat(fresh.digest(saved("u3"), size, Digest.Algorithm.SHA256)).isEqualTo(Digest.sha256(concat(FIRST, SECOND)));
        assertThat(fresh.digest(saved("u3"), size, Digest.Algorithm.SHA512))
                .isEqualTo(Digest.of(Digest.Algorithm.SHA512, concat(FIRST, SECOND)));
    }

    @Test
    void appendThatFailsHalfWayLeavesAHashThatARetryContinuesFrom() throws Exception {
        FilesystemBlobStore blobs = new FilesystemBlobStore(root);
        UploadHasher hasher = new UploadHasher(blobs, UNLIMITED);
        blobs.startUpload("u4");
        long size = hasher.append(saved("u4"), 0, new ByteArrayInputStream(FIRST), NOT_CLOSING).size();
        InputStream breaksAfterFourBytes = new SequenceInputStream(new ByteArrayInputStream(SECOND, 0, 4), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("client went away");
            }
        });

        long failedAt = size;
        assertThatThrownBy(() -> hasher.append(saved("u4"), failedAt, breaksAfterFourBytes, NOT_CLOSING)).isInstanceOf(IOException.class);
        size = hasher.append(saved("u4"), blobs.uploadSize("u4"), new ByteArrayInputStream(SECOND), NOT_CLOSING).size();

        assertThat(hasher.digest(saved("u4"), size, Digest.Algorithm.SHA256)).isEqualTo(Digest.sha256(concat(FIRST, SECOND)));
    }

    @Test
    void digestStaysRightAfterManyOtherUploadsPushedItsRunningHashOut() throws Exception {
        FilesystemBlobStore blobs = new FilesystemBlobStore(root);
        UploadHasher hasher = new UploadHasher(blobs, UNLIMITED, 4);
        blobs.startUpload("early");
        long size = hasher.append(saved("early"), 0, new ByteArrayInputStream(FIRST), NOT_CLOSING).size();
        for (int i = 0; i < 10; i++) {
            blobs.startUpload("later-" + i);
            hasher.append(saved("later-" + i), 0, new ByteArrayInputStream(SECOND), NOT_CLOSING);
        }

        size = hasher.append(saved("early"), size, new ByteArrayInputStream(SECOND), NOT_CLOSING).size();

        assertThat(hasher.digest(saved("early"), size, Digest.Algorithm.SHA256)).isEqualTo(Digest.sha256(concat(FIRST, SECOND)));
    }

    /** The saved state of an upload on a store that reads uploads back, which does not need it. */
    private static UploadState saved(String uploadId) {
        Instant now = Instant.now();
        return new UploadState(uploadId, RepositoryName.of("library/test"), 0, new byte[0], now, now);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
