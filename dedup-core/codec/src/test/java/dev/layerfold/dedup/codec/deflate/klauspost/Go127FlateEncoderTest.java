package dev.layerfold.dedup.codec.deflate.klauspost;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertMatchesGo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.encode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.deflate.golang.GoFlateOracle;
import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The port writes exactly what Go 1.27's {@code compress/flate} writes, at every level. */
class Go127FlateEncoderTest {

    private static GoFlateOracle go;

    @BeforeAll
    static void startOracle() {
        go = Go127Oracle.get();
    }

    static IntStream levels() {
        return IntStream.rangeClosed(-2, 9);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void emptyAndTinyInputsMatchGo(int level) {
        assertMatchesGo(Go127Oracle.PORT, go, level, new byte[0], level);
        assertMatchesGo(Go127Oracle.PORT, go, level, new byte[] {'x'}, level);
        // Around the sizes where a final block turns from stored to Huffman-only to compressed.
        for (int size : new int[] {12, 13, 32, 33, 127, 128, 300}) {
            assertMatchesGo(Go127Oracle.PORT, go, level, TestInputs.repetitive(size, size), level);
        }
    }

    @ParameterizedTest
    @MethodSource("levels")
    void randomDataMatchesGo(int level) {
        assertMatchesGo(Go127Oracle.PORT, go, level, TestInputs.random(300_000, level), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void repetitiveDataMatchesGo(int level) {
        assertMatchesGo(Go127Oracle.PORT, go, level, TestInputs.repetitive(600_000, level), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void sourceTextMatchesGo(int level) {
        assertMatchesGo(Go127Oracle.PORT, go, level, TestInputs.text(go.goRoot(), 1_000_000), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void executableMatchesGo(int level) throws Exception {
        assertMatchesGo(Go127Oracle.PORT, go, level, TestInputs.head(go.binary(), 400_000), level);
    }

    @ParameterizedTest
    @MethodSource("levels")
    void tarOfRealFilesMatchesGo(int level) {
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 1_500_000);
        assertMatchesGo(Go127Oracle.PORT, go, level, tar, level);
    }

    /** Mixed content makes the writer switch between stored, Huffman-only, reused and new tables. */
    @ParameterizedTest
    @MethodSource("levels")
    void mixedContentMatchesGo(int level) {
        int size = 900_000;
        byte[] text = TestInputs.text(go.goRoot(), size / 3);
        byte[] random = TestInputs.random(size / 3, 7);
        byte[] runs = TestInputs.repetitive(size / 3, 7);
        byte[] input = new byte[text.length + random.length + runs.length];
        System.arraycopy(text, 0, input, 0, text.length);
        System.arraycopy(random, 0, input, text.length, random.length);
        System.arraycopy(runs, 0, input, text.length + random.length, runs.length);
        assertMatchesGo(Go127Oracle.PORT, go, level, input, level);
    }

    /** Flushes every few hundred bytes: small final blocks and the fast encoders' history reset. */
    @ParameterizedTest
    @MethodSource("levels")
    void frequentFlushesMatchGo(int level) {
        byte[] input = TestInputs.text(go.goRoot(), 100_000);
        long[] flushes = LongStream.iterate(0, offset -> offset < input.length, offset -> offset + 20 + offset % 700)
                .toArray();
        assertSameBytes(encode(Go127Oracle.PORT, level, input, flushes, null), go.compress(level, input, flushes),
                level, "flushed " + flushes.length + " times");
    }

    @Test
    void levelsGoRejectsAreRejected() {
        for (int level : new int[] {-3, 10}) {
            assertThatThrownBy(() -> KlauspostFlateEncoder.go127(new ByteArrayOutputStream(), level))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[-2, 9]");
        }
    }
}
