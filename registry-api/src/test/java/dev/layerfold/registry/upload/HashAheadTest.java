package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.storage.Digest;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HashAheadTest {

    private static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

    @Test
    void hashesEveryByteInOrderWhateverThePiecesTheCallerHandsOver() throws Exception {
        byte[] blob = new byte[5 * 1024 * 1024 + 123];
        Random random = new Random(42);
        random.nextBytes(blob);
        JdkHash sha256 = new JdkHash(Digest.Algorithm.SHA256);
        JdkHash sha512 = new JdkHash(Digest.Algorithm.SHA512);
        byte[] reused = new byte[700 * 1024];

        try (HashAhead hashAhead = new HashAhead(List.of(sha256, sha512), UNLIMITED)) {
            for (int offset = 0; offset < blob.length; ) {
                // Pieces below, at and above the hashing buffer's size, in a buffer the caller overwrites.
                int length = Math.min(blob.length - offset, 1 + random.nextInt(reused.length));
                System.arraycopy(blob, offset, reused, 0, length);
                hashAhead.update(reused, 0, length);
                offset += length;
            }
            hashAhead.await();
        }

        assertThat(sha256.finish()).isEqualTo(Digest.sha256(blob));
        assertThat(sha512.finish()).isEqualTo(Digest.of(Digest.Algorithm.SHA512, blob));
    }

    @Test
    void aBlobSmallerThanOneBufferIsHashedOnAwait() throws Exception {
        byte[] blob = "a small manifest-sized blob".getBytes();
        JdkHash sha256 = new JdkHash(Digest.Algorithm.SHA256);

        try (HashAhead hashAhead = new HashAhead(List.of(sha256), UNLIMITED)) {
            hashAhead.update(blob, 0, blob.length);
            hashAhead.await();
        }

        assertThat(sha256.finish()).isEqualTo(Digest.sha256(blob));
    }
}
