package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ResumableHashTest {

    @ParameterizedTest
    @EnumSource(Digest.Algorithm.class)
    void hashContinuedFromSavedStatesAtRandomSplitsEqualsTheStraightDigest(Digest.Algorithm algorithm) {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            byte[] data = new byte[random.nextInt(3 * 64 + 1000)];
            random.nextBytes(data);

            RunningHash hash = new ResumableHash(algorithm);
            for (int from = 0; from < data.length; ) {
                int length = Math.min(data.length - from, random.nextInt(130));
                hash.update(data, from, length);
                from += length;
                hash = ResumableHash.restore(algorithm, hash.encodedState()); // another process takes over
            }

            assertThat(hash.finish()).as("%d bytes", data.length).isEqualTo(Digest.of(algorithm, data));
        }
    }

    @Test
    void copyContinuesIndependentlyOfTheOriginal() {
        RunningHash original = new ResumableHash(Digest.Algorithm.SHA256);
        original.update(new byte[] {1, 2, 3}, 0, 3);
        RunningHash copy = original.copy();
        original.update(new byte[] {4}, 0, 1);

        assertThat(copy.finish()).isEqualTo(Digest.sha256(new byte[] {1, 2, 3}));
        assertThat(original.finish()).isEqualTo(Digest.sha256(new byte[] {1, 2, 3, 4}));
    }

    @Test
    void restoringSomethingThatIsNoSavedStateFailsClearly() {
        assertThatThrownBy(() -> ResumableHash.restore(Digest.Algorithm.SHA512, new byte[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a saved sha512 state");
    }
}
