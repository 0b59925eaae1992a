package dev.layerfold.dedup.codec.deflate.klauspost;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * For arbitrary input, level and block size, the port writes what pgzip writes over every
 * klauspost/compress release there is an oracle for.
 */
class PgzipEncoderPropertyTest {

    private static final byte[] TAR = tar();

    @Property(tries = 300)
    void anyInputAtAnyLevelMatchesPgzip(@ForAll("inputs") byte[] input, @ForAll @IntRange(min = -2, max = 9) int level,
                                        @ForAll @IntRange(min = 16_385, max = 200_000) int blockSize,
                                        @ForAll("releases") FlateRelease release) throws IOException {
        byte[] ours = PgzipEncoderTest.encode(release, level, blockSize, input);
        assertSameBytes(ours, PgzipOracle.of(release).deflate(level, blockSize, input), level, release + ", " + blockSize + "-byte blocks");
        assertInflatesTo(ours, input);
    }

    /** klauspost/compress 1.13.6, whose release is ported for levels -2, 0, 1, 2, 4, 5 and 6 (and -1, which is 5). */
    @Property(tries = 100)
    void anyInputAtA1136PortedLevelMatchesPgzip(@ForAll("inputs") byte[] input, @ForAll("levels1136") int level,
                                                @ForAll @IntRange(min = 16_385, max = 200_000) int blockSize) throws IOException {
        byte[] ours = PgzipEncoderTest.encode(FlateRelease.COMPRESS_1_13_6, level, blockSize, input);
        assertSameBytes(ours, PgzipOracle.ofCompress("1.13.6").deflate(level, blockSize, input), level, "compress 1.13.6, " + blockSize + "-byte blocks");
        assertInflatesTo(ours, input);
    }

    @Provide
    Arbitrary<Integer> levels1136() {
        return Arbitraries.of(-2, -1, 0, 1, 2, 4, 5, 6);
    }

    @Provide
    Arbitrary<FlateRelease> releases() {
        return Arbitraries.of(PgzipOracle.releases());
    }

    /** The Go encoders' property inputs, and slices of a real tar long enough for several blocks. */
    @Provide
    Arbitrary<byte[]> inputs() {
        Arbitrary<byte[]> tarSlices = Arbitraries.integers().between(0, TAR.length)
                .flatMap(from -> Arbitraries.integers().between(from, Math.min(TAR.length, from + 600_000))
                        .map(to -> Arrays.copyOfRange(TAR, from, to)));
        return Arbitraries.frequencyOf(Tuple.of(3, TestInputs.arbitrary()), Tuple.of(2, tarSlices));
    }

    private static byte[] tar() {
        return TestInputs.tarOf(TestInputs.docs(), 4_000_000);
    }
}
