package dev.layerfold.dedup.codec.deflate.golang;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertMatchesGo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The port writes exactly what Go's {@code compress/flate} writes, at every level. */
class GoFlateEncoderTest {

    private static GoFlateOracle go;

    @BeforeAll
    static void startOracle() {
        go = GoFlateOracle.get();
    }

    /** Every level Go accepts: HuffmanOnly, default, stored, BestSpeed, 2 to 9. */
    static IntStream levels() {
        return IntStream.rangeClosed(-2, 9);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void emptyInputMatchesGo(int level) {
        assertMatchesGo(go, level, new byte[0], level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void oneByteMatchesGo(int level) {
        assertMatchesGo(go, level, new byte[] {'x'}, level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void randomDataMatchesGo(int level) {
        assertMatchesGo(go, level, TestInputs.random(300_000, level), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void repetitiveDataMatchesGo(int level) {
        assertMatchesGo(go, level, TestInputs.repetitive(600_000, level), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void textMatchesGo(int level) {
        assertMatchesGo(go, level, TestInputs.text(go.goRoot(), 1_000_000), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void binariesMatchGo(int level) throws IOException {
        // The oracle's own executable, built here: machine code and tables, the same on every machine with this Go.
        byte[] binary = TestInputs.head(go.binary(), 1_000_000);
        assertThat(binary).as("the oracle's executable").hasSizeGreaterThan(400_000);
        assertMatchesGo(go, level, binary, level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void tarOfSystemFilesMatchesGo(int level) {
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 1_500_000);
        assertThat(tar.length).as("tar size").isGreaterThan(100_000);
        assertMatchesGo(go, level, tar, level);
    }

    /** Sizes around the window, block, store and hash-lookahead boundaries each level uses. */
    @ParameterizedTest
    @MethodSource("levels")
    void sizesAroundEveryBoundaryMatchGo(int level) {
        byte[] mixed = mixed(3 * 65_536 + 600);
        int[] sizes = {2, 3, 4, 5, 15, 16, 17, 18, 127, 128, 129, 257, 258, 259, 261, 262, 263, 4096, 16_384,
            32_768, 32_769, 65_535 - 262, 65_535, 65_536, 2 * 65_536 - 262, 3 * 65_536 + 600};
        for (int size : sizes) {
            assertMatchesGo(go, level, java.util.Arrays.copyOf(mixed, size), size);
        }
    }

    /** Text, then random bytes, then runs: every block type within one stream. */
    private static byte[] mixed(int size) {
        byte[] mixed = new byte[size];
        byte[] text = TestInputs.text(go.goRoot(), size / 3);
        byte[] random = TestInputs.random(size / 3, 7);
        byte[] runs = TestInputs.repetitive(size - text.length - random.length, 7);
        System.arraycopy(text, 0, mixed, 0, text.length);
        System.arraycopy(random, 0, mixed, text.length, random.length);
        System.arraycopy(runs, 0, mixed, text.length + random.length, runs.length);
        return mixed;
    }

    @ParameterizedTest
    @MethodSource("levels")
    void flushesWithNothingBufferedMatchGo(int level) {
        byte[] input = TestInputs.text(go.goRoot(), 100_000);
        long[] flushes = {0, 0, 10, 10, 10, 50_000, 100_000, 100_000};
        byte[] ours = encode(level, input, flushes, null);
        assertSameBytes(ours, go.compress(level, input, flushes), level, "repeated flushes");
        assertInflatesTo(ours, input);
    }

    /**
     * Each flush of a byte or so at BestSpeed moves the match offsets on by 32 KiB, until they are
     * rebased to stay within an int: after 65,531 such flushes the rebase happens with no previous
     * block (the table is cleared); after 65,529, the next full window crosses the limit and the
     * one after it is rebased with a previous block to match into.
     */
    @ParameterizedTest
    @ValueSource(ints = {65_529, 65_531})
    void bestSpeedMatchesGoWhenItsOffsetsAreRebased(int tinyFlushes) {
        long[] flushes = LongStream.rangeClosed(1, tinyFlushes).toArray();
        byte[] text = TestInputs.text(go.goRoot(), 300_000);
        byte[] ours = encode(1, text, flushes, null);
        assertSameBytes(ours, go.compress(1, text, flushes), 1, "after offset rebasing");
        assertInflatesTo(ours, text);
    }

    @ParameterizedTest
    @ValueSource(ints = {-2, 0, 1, 6, 9})
    void aResetEncoderWritesWhatANewOneWrites(int level) throws IOException {
        byte[] first = TestInputs.text(go.goRoot(), 300_000);
        byte[] second = TestInputs.repetitive(200_000, 3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GoFlateEncoder encoder = GoFlateEncoder.create(out, level);
        encoder.write(first, 0, first.length);
        encoder.finish();
        out.reset();
        encoder.reset(out);
        encoder.write(second, 0, second.length);
        encoder.finish();
        assertSameBytes(out.toByteArray(), go.compress(level, second), level, "after reset");
    }

    @Test
    void defaultLevelIsLevelSix() {
        byte[] input = TestInputs.text(go.goRoot(), 200_000);
        assertThat(encode(-1, input, new long[0], null)).isEqualTo(encode(6, input, new long[0], null));
    }

    @ParameterizedTest
    @ValueSource(ints = {-3, 10, Integer.MIN_VALUE})
    void levelsGoRejectsAreRejected(int level) {
        assertThatThrownBy(() -> GoFlateEncoder.create(new ByteArrayOutputStream(), level))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[-2, 9]");
    }

    @Test
    void writingAfterFinishIsRejected() throws IOException {
        GoFlateEncoder encoder = GoFlateEncoder.create(new ByteArrayOutputStream(), 6);
        encoder.finish();
        assertThatThrownBy(() -> encoder.write(new byte[1], 0, 1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("finished");
    }
}
