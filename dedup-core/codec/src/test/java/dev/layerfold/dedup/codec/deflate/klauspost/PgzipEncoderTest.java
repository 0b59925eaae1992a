package dev.layerfold.dedup.codec.deflate.klauspost;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The port writes what klauspost/pgzip writes over each klauspost/compress release there is an
 * oracle for ({@link PgzipOracle}), at every level -2 to 9. Level 9 of 1.20.3 is klauspost's own,
 * not Go 1.27's: klauspost/compress prices a literal its table has no code for at 0 bits when it
 * weighs a match, Go 1.27 at 1.
 */
class PgzipEncoderTest {

    static Stream<Arguments> releasesAndLevels() {
        return PgzipOracle.releases().stream().flatMap(release -> IntStream.rangeClosed(-2, 9).mapToObj(level -> Arguments.of(release, level)));
    }

    @ParameterizedTest
    @MethodSource("releasesAndLevels")
    void blocksPrimedWithThePreviousTailMatchPgzip(FlateRelease release, int level) throws IOException {
        PgzipOracle pgzip = PgzipOracle.of(release);
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 3_000_000);
        // 1 MiB blocks as containers/image writes them, and small ones: tails, a short last block.
        for (int blockSize : new int[] {1 << 20, 100_000, 16_385}) {
            assertSameBytes(encode(release, level, blockSize, tar), pgzip.deflate(level, blockSize, tar), level,
                    release + ", " + blockSize + "-byte blocks");
        }
        byte[] exact = Arrays.copyOf(tar, 200_000);
        assertSameBytes(encode(release, level, 100_000, exact), pgzip.deflate(level, 100_000, exact), level,
                release + ", input a whole number of blocks");
        assertSameBytes(encode(release, level, 100_000, new byte[0]), pgzip.deflate(level, 100_000, new byte[0]), level,
                release + ", empty input");
    }

    /**
     * klauspost/compress 1.18.1 needs no release of its own: up to level 6 it writes 1.18.2's bytes.
     * Its levels 7 to 9 are not ported: on some tars they write streams that gzip rejects, so no
     * tool's layer of them is ever pulled.
     */
    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 0, 1, 2, 3, 4, 5, 6})
    void compress1181WritesWhat1182WritesUpToLevel6(int level) throws IOException {
        PgzipOracle pgzip = PgzipOracle.ofCompress("1.18.1");
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 3_000_000);
        for (int blockSize : new int[] {1 << 20, 100_000}) {
            assertSameBytes(encode(FlateRelease.COMPRESS_1_19_2, level, blockSize, tar), pgzip.deflate(level, blockSize, tar), level,
                    "compress 1.18.1, " + blockSize + "-byte blocks");
        }
    }

    /**
     * klauspost/compress 1.14.2 (podman 4.0, buildah 1.24: containers/image 5.19 and containers/storage
     * 1.38 pin it) writes what 1.14.4 writes but at level 3, whose hashing 1.14.3 changed (not ported).
     */
    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 0, 1, 2, 4, 5, 6, 7, 8, 9})
    void compress1142WritesWhat1144WritesButAtLevel3(int level) throws IOException {
        PgzipOracle pgzip = PgzipOracle.ofCompress("1.14.2");
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 3_000_000);
        for (int blockSize : new int[] {1 << 20, 100_000}) {
            assertSameBytes(encode(FlateRelease.COMPRESS_1_14_4, level, blockSize, tar), pgzip.deflate(level, blockSize, tar), level,
                    "compress 1.14.2, " + blockSize + "-byte blocks");
        }
    }

    /** klauspost/compress 1.13.6 (Ubuntu 22.04's podman 3.4.4) at the levels its release is ported for. */
    @ParameterizedTest
    @ValueSource(ints = {-2, -1, 0, 1, 2, 4, 5, 6})
    void compress1136MatchesPgzipAtItsPortedLevels(int level) throws IOException {
        PgzipOracle pgzip = PgzipOracle.ofCompress("1.13.6");
        byte[] tar = TestInputs.tarOf(TestInputs.docs(), 3_000_000);
        for (int blockSize : new int[] {1 << 20, 100_000, 16_385}) {
            assertSameBytes(encode(FlateRelease.COMPRESS_1_13_6, level, blockSize, tar), pgzip.deflate(level, blockSize, tar), level,
                    "compress 1.13.6, " + blockSize + "-byte blocks");
        }
    }

    /** The port's deflate stream, written in random-sized pieces. */
    static byte[] encode(FlateRelease release, int level, int blockSize, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PgzipEncoder encoder = PgzipEncoder.create(out, level, blockSize, release);
        Random random = new Random(input.length);
        for (int position = 0; position < input.length; ) {
            int n = Math.min(input.length - position, random.nextInt(300_000));
            encoder.write(input, position, n);
            position += n;
        }
        encoder.finish();
        return out.toByteArray();
    }
}
