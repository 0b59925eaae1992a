package dev.layerfold.registry.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.Digest;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResumableSha256Test {

    @Test
    void hashContinuedFromSavedStatesAtRandomSplitsEqualsTheStraightDigest() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            byte[] data = new byte[random.nextInt(3 * 64 + 1000)];
            random.nextBytes(data);

            RunningHash hash = new ResumableSha256();
            for (int from = 0; from < data.length; ) {
                int length = Math.min(data.length - from, random.nextInt(130));
                hash.update(data, from, length);
                from += length;
                hash = ResumableSha256.restore(hash.encodedState()); // another process takes over
            }

            assertThat(hash.finish()).as("%d bytes", data.length).isEqualTo(Digest.sha256(data));
        }
    }

    @Test
    void copyContinuesIndependentlyOfTheOriginal() {
        RunningHash original = new ResumableSha256();
        original.update(new byte[] {1, 2, 3}, 0, 3);
        RunningHash copy = original.copy();
        original.update(new byte[] {4}, 0, 1);

        assertThat(copy.finish()).isEqualTo(Digest.sha256(new byte[] {1, 2, 3}));
        assertThat(original.finish()).isEqualTo(Digest.sha256(new byte[] {1, 2, 3, 4}));
    }

    @Test
    void restoringSomethingThatIsNoSavedStateFailsClearly() {
        assertThatThrownBy(() -> ResumableSha256.restore(new byte[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a saved SHA-256 state");
    }
}
