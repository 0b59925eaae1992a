package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The port writes exactly what GNU gzip writes, at every level, however its input is split. */
class GnuGzipEncoderTest {

    static Stream<Arguments> levelsAndInputs() {
        return ReferenceInputs.small().stream()
                .flatMap(input -> java.util.stream.IntStream.rangeClosed(1, 9).mapToObj(level -> Arguments.of(level, input)));
    }

    @ParameterizedTest
    @MethodSource("levelsAndInputs")
    void everyLevelMatchesGzip(int level, ReferenceInputs.Named input) throws IOException {
        byte[] expected = GnuGzip.deflate(level, input.data());
        assertSameBytes(encode(level, input.data(), new Random(level)), expected, level, input.name());
        assertSameBytes(encode(level, input.data(), null), expected, level, input.name() + ", written whole");
    }

    /** Several window slides, and blocks ended by gzip's guess as well as by a full buffer. */
    @ParameterizedTest
    @MethodSource("levels")
    void layerSizedTarMatchesGzip(int level) throws IOException {
        byte[] input = ReferenceInputs.systemTar();
        byte[] ours = encode(level, input, new Random(level));
        assertSameBytes(ours, GnuGzip.deflate(level, input), level, "system tar");
        assertInflatesTo(ours, input);
    }

    /**
     * Near the end of input a level-9 search compares the window past it: the two bytes gzip zeroes
     * there and the stale bytes after them decide between equally long matches. A tar's many zero
     * runs, cut at many points, meet such ends.
     */
    @ParameterizedTest
    @MethodSource("levels")
    void inputsEndingAnywhereInATarMatchGzip(int level) throws IOException {
        byte[] tar = ReferenceInputs.systemTar();
        Random random = new Random(level);
        for (int i = 0; i < 12; i++) {
            byte[] input = java.util.Arrays.copyOf(tar, 70_000 + random.nextInt(Math.max(1, Math.min(tar.length, 400_000) - 70_000)));
            assertSameBytes(encode(level, input, random), GnuGzip.deflate(level, input), level, input.length + " bytes of a tar");
        }
    }

    static Stream<Integer> levels() {
        return Stream.of(1, 3, 4, 6, 9);
    }

    @Test
    void levelsGzipRefusesAreRefused() {
        for (int level : new int[] {0, 10}) {
            assertThatThrownBy(() -> GnuGzipEncoder.create(new ByteArrayOutputStream(), level))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..9");
        }
    }

    /** The port's output, written whole or in random pieces (empty ones included). */
    static byte[] encode(int level, byte[] input, Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GnuGzipEncoder encoder = GnuGzipEncoder.create(out, level);
        for (int position = 0; position < input.length; ) {
            int n = random == null ? input.length : Math.min(input.length - position, random.nextInt(4) == 0 ? random.nextInt(17) : random.nextInt(100_000));
            encoder.write(input, position, n);
            position += n;
        }
        encoder.finish();
        return out.toByteArray();
    }
}
