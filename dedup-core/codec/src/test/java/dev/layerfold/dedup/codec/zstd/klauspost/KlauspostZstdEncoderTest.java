package dev.layerfold.dedup.codec.zstd.klauspost;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The port writes what klauspost/compress/zstd's Writer writes ({@link KlauspostZstdOracle}), byte
 * for byte: on system files, on random data of every kind of compressibility, at the sizes where
 * the Writer changes course (nothing, one whole frame, a block boundary, history wrapping).
 */
class KlauspostZstdEncoderTest {

    static byte[] encode(KlauspostSettings settings, byte[] input, int piece) throws IOException {
        return encode(settings, input, piece, new long[0]);
    }

    private static byte[] encode(KlauspostSettings settings, byte[] input, int piece, long[] flushPoints) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(settings, flushPoints, out)) {
            for (int at = 0; at < input.length; at += piece) {
                encoder.write(input, at, Math.min(piece, input.length - at));
            }
            encoder.finish();
        }
        return out.toByteArray();
    }

    private static void assertSameAsWriter(KlauspostSettings.Release release, int level, byte[] input) throws Exception {
        for (String version : KlauspostZstdOracle.RELEASES.get(release)) {
            assertSameAsWriter(release, version, level, input);
        }
    }

    private static void assertSameAsWriter(KlauspostSettings.Release release, String version, int level, byte[] input) throws Exception {
        byte[] expected = KlauspostZstdOracle.compress(version, level, 1, input);
        byte[] actual = encode(new KlauspostSettings(level, release), input, 100_000);
        int mismatch = java.util.Arrays.mismatch(actual, expected);
        assertThat(mismatch).as("first differing byte from compress %s level %d of %d (expected %d bytes, got %d)", version, level, input.length, expected.length, actual.length)
                .isEqualTo(-1);
    }

    /**
     * A Flush mid-frame ends the block short there and the next fills up from it (a flush point); one
     * on a block boundary or at the start, with nothing pending, changes nothing; one before the first
     * block is full makes a streamed frame of a small input; one at the end leaves an empty last block.
     */
    @ParameterizedTest(name = "level {0}, {1} bytes, flushed at {2}")
    @CsvSource({"2, 5000, 1000", "2, 5000, 5000", "1, 5000, 0 1000 1001", "2, 400000, 131072", "2, 400000, 100000 100001 300000 400000",
            "1, 400000, 65535 65536 70000", "3, 400000, 512 10240 399999", "4, 300000, 200000"})
    void flushesEndBlocksWhereTheWritersFlushEndsThem(int level, int size, String flushes) throws Exception {
        byte[] input = mixed(new Random(size + level), size);
        long[] points = Arrays.stream(flushes.split(" ")).mapToLong(Long::parseLong).toArray();
        for (KlauspostSettings.Release release : KlauspostSettings.Release.values()) {
            String version = KlauspostZstdOracle.RELEASES.get(release).getLast();
            byte[] expected = KlauspostZstdOracle.compressFlushing(version, level, input, points);

            assertThat(encode(new KlauspostSettings(level, release), input, 7777, points)).as("compress %s", version).isEqualTo(expected);
        }
    }

    /**
     * Reset between frames (as zstd:chunked's compressor resets the Writer), the port writes each frame
     * as a new encoder writes it (which the tests above prove is the Writer's frame): small frames,
     * frames of several blocks, flushed ones and frames abandoned midway, 150 in a row, past where
     * the moved tables are cleared.
     */
    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void aResetEncoderWritesEachFrameAsANewOneWrites(int level) throws IOException {
        KlauspostSettings settings = new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_18_0);
        Random random = new Random(level);
        byte[] content = mixed(random, 1 << 20);
        KlauspostZstdEncoder reused = new KlauspostZstdEncoder(settings, OutputStream.nullOutputStream());
        for (int frame = 0; frame < 150; frame++) {
            int size = frame % 15 == 0 ? 140_000 + random.nextInt(160_000) : random.nextInt(20_000);
            int start = random.nextInt(content.length - size);
            long[] flushes = frame % 7 == 0 && size > 1 ? new long[] {1 + random.nextInt(size - 1)} : new long[0];
            byte[] input = Arrays.copyOfRange(content, start, start + size);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            reused.reset(flushes, out);
            if (frame % 13 == 5) {
                reused.write(input, 0, size / 2);
                continue;
            }
            reused.write(input, 0, size);
            reused.finish();

            assertThat(out.toByteArray()).as("frame %d of %d bytes", frame, size).isEqualTo(encode(settings, input, size + 1, flushes));
        }
    }

    @ParameterizedTest(name = "{0}, level {1}")
    @CsvSource({"COMPRESS_1_18_0, 1", "COMPRESS_1_18_0, 2", "COMPRESS_1_18_0, 3", "COMPRESS_1_18_0, 4", "COMPRESS_1_20_3, 1", "COMPRESS_1_20_3, 2",
            "COMPRESS_1_20_3, 3", "COMPRESS_1_20_3, 4"})
    void systemFilesAreWrittenAsTheWriterWritesThem(KlauspostSettings.Release release, int level) throws Exception {
        assertSameAsWriter(release, level, systemFiles(40 << 20));
    }

    /** The first {@code limit} bytes of a tar of /usr/share's doc and man. */
    private static byte[] systemFiles(int limit) throws Exception {
        Path tar = Files.createTempFile("usr-share", ".tar");
        try {
            new ProcessBuilder("bash", "-c", "tar -C /usr/share -cf " + tar + " doc man 2>/dev/null; truncate -s %48M " + tar)
                    .inheritIO().start().waitFor();
            byte[] input = Files.readAllBytes(tar);
            return java.util.Arrays.copyOf(input, Math.min(input.length, limit));
        } finally {
            Files.deleteIfExists(tar);
        }
    }

    /**
     * compress 1.17.7 writes a block of one repeated byte as a compressed block where 1.17.8 on write
     * an RLE block, and is otherwise 1.18.0's generation: system files with 128 KiB+ runs of zeros and
     * of 0x7 and random data between them, at every level, are what 1.17.7 writes at 11707 and what
     * 1.17.8 writes at 11800 (the first release with the RLE block), and the two generations differ on it.
     */
    @ParameterizedTest
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER, KlauspostSettings.SPEED_BEST})
    void compress1177WritesBlocksOfOneByteAsCompressedBlocks(int level) throws Exception {
        byte[] input = withRuns(systemFiles(3 << 20), new Random(level));

        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_17_7, "1.17.7", level, input);
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_18_0, "1.17.8", level, input);
        assertThat(Arrays.equals(encode(new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_17_7), input, 100_000),
                encode(new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_18_0), input, 100_000))).as("1.17.7's frame is 1.18.0's").isFalse();
    }

    /**
     * What identification tells 1.17.7's frames at SpeedFastest and SpeedDefault by: a frame of one
     * repeated byte over 15 bytes starts with an RLE block from 1.17.8 on (1.18.0 and 1.17.8 here), with
     * a compressed or raw block in 1.17.7; and the port writes each such frame as 1.17.7 does.
     */
    @ParameterizedTest
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT})
    void aFrameOfOneByteStartsWithAnRleBlockFrom1178On(int level) throws Exception {
        for (int size : new int[] {16, 17, 100, 1000, 65535, 65536, 65537, 131072, 131073, 300000}) {
            for (byte value : new byte[] {0, 7}) {
                byte[] input = new byte[size];
                Arrays.fill(input, value);
                for (String version : new String[] {"1.17.8", "1.18.0"}) {
                    assertThat(firstBlockType(KlauspostZstdOracle.compress(version, level, 1, input))).as("compress %s, %d bytes", version, size)
                            .isEqualTo(dev.layerfold.dedup.codec.container.ZstdFrameHeader.Block.RLE);
                }
                assertThat(firstBlockType(KlauspostZstdOracle.compress("1.17.7", level, 1, input))).as("compress 1.17.7, %d bytes", size)
                        .isNotEqualTo(dev.layerfold.dedup.codec.container.ZstdFrameHeader.Block.RLE);
                assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_17_7, "1.17.7", level, input);
            }
        }
    }

    private static int firstBlockType(byte[] frame) {
        int headerLength = 5 + dev.layerfold.dedup.codec.container.ZstdFrameHeader.fieldsLength(frame[4] & 0xff);
        return dev.layerfold.dedup.codec.container.ZstdFrameHeader.Block.decode(frame, headerLength).type();
    }

    /**
     * 140 KiB of 0x7 (a frame's first block of one byte is the RLE block at every level from 1.17.8
     * on), {@code content}, 300 KiB of zeros, 200 KiB of random bytes, 140 KiB of 0x7 again and
     * {@code content}'s first 64 KiB again.
     */
    static byte[] withRuns(byte[] content, Random random) {
        byte[] random200 = new byte[200 << 10];
        random.nextBytes(random200);
        byte[] sevens = new byte[140 << 10];
        Arrays.fill(sevens, (byte) 7);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(sevens);
        out.writeBytes(content);
        out.writeBytes(new byte[300 << 10]);
        out.writeBytes(random200);
        out.writeBytes(sevens);
        out.write(content, 0, Math.min(content.length, 64 << 10));
        return out.toByteArray();
    }

    /** compress 1.18.5 and later write an empty frame for no input; earlier releases nothing, so no frame of theirs is empty. */
    @ParameterizedTest
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER, KlauspostSettings.SPEED_BEST})
    void noInputIsTheEmptyFrameLaterReleasesWrite(int level) throws Exception {
        assertThat(KlauspostZstdOracle.compress("1.18.0", level, 1, new byte[0])).isEmpty();
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_18_0, "1.20.2", level, new byte[0]);
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_20_3, "1.20.4", level, new byte[0]);
    }

    @ParameterizedTest(name = "level {0}, {1} bytes")
    @CsvSource({"2, 1", "2, 15", "2, 16", "2, 100", "2, 255", "2, 256", "2, 1024", "2, 1025", "2, 5000", "2, 65791", "2, 65792",
            "2, 131071", "2, 131072", "2, 131073", "2, 262144", "2, 300000", "1, 1", "1, 9", "1, 10", "1, 1025", "1, 65535", "1, 65536",
            "1, 65537", "1, 131072", "1, 300000", "3, 1", "3, 4", "3, 5", "3, 31", "3, 32", "3, 1025", "3, 131072", "3, 131073", "3, 300000", "4, 1", "4, 5", "4, 16", "4, 17",
            "4, 1025", "4, 131072", "4, 131073", "4, 300000"})
    void sizesWhereTheWriterChangesCourseAreWrittenAlike(int level, int size) throws Exception {
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_18_0, "1.18.0", level, mixed(new Random(size), size));
    }

    @Property(tries = 30)
    void randomContentIsWrittenAlike(@ForAll long seed, @ForAll KlauspostSettings.Release release, @ForAll @IntRange(min = 1, max = 4) int level,
                                     @ForAll @IntRange(min = 1, max = 1_500_000) int size) throws Exception {
        assertSameAsWriter(release, level, mixed(new Random(seed), size));
    }

    @Test
    void theOutputDoesNotDependOnTheWritersThreads() throws Exception {
        byte[] input = mixed(new Random(7), 3 << 20);
        for (int level : KlauspostSettings.LEVELS) {
            assertThat(KlauspostZstdOracle.compress(level, 4, input)).isEqualTo(KlauspostZstdOracle.compress(level, 1, input));
        }
    }

    /** A block of one byte repeated is one sequence from SpeedBetterCompression on; a block of literals alone is Huffman-coded there. */
    @ParameterizedTest
    @ValueSource(ints = {KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER, KlauspostSettings.SPEED_BEST})
    void constantAndLiteralOnlyBlocksAreWrittenAlike(int level) throws Exception {
        byte[] input = new byte[600_000];
        Random random = new Random(3);
        for (int i = 131072; i < 262144; i++) {
            input[i] = (byte) "abcdefgh".charAt(random.nextInt(8));
        }
        java.util.Arrays.fill(input, 262144, 393216, (byte) 7);
        for (int i = 393216; i < input.length; i++) {
            input[i] = (byte) random.nextInt(256);
        }
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_18_0, level, input);
        assertSameAsWriter(KlauspostSettings.Release.COMPRESS_1_20_3, level, input);
    }

    /**
     * Past about 2 GiB of one frame the Writer rebases its tables, so that positions stay within an
     * int: a frame of 2.2 GB (the same 64 MiB of mixed content over and over) is written alike, fed to
     * the Writer by io.Copy as containers/image feeds it, and compared as it comes.
     */
    @ParameterizedTest
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER})
    void framesPastTwoGiBAreWrittenAlike(int level) throws Exception {
        long size = 2_200_000_000L;
        byte[] pattern = mixed(new Random(level), 64 << 20);
        Process writer = KlauspostZstdOracle.stream("1.18.0", level);
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (java.io.OutputStream in = writer.getOutputStream()) {
                for (long at = 0; at < size; at += pattern.length) {
                    in.write(pattern, 0, (int) Math.min(pattern.length, size - at));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Comparing expected = new Comparing(writer.getInputStream());
        try (KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_18_0),
                expected)) {
            for (long at = 0; at < size && expected.mismatch < 0; at += pattern.length) {
                encoder.write(pattern, 0, (int) Math.min(pattern.length, size - at));
            }
            encoder.finish();
        }
        if (expected.mismatch < 0) {
            feeder.join();
        } else {
            writer.destroy();
        }
        assertThat(expected.mismatch).as("first differing byte").isEqualTo(-1);
        assertThat(writer.getInputStream().read()).as("the Writer's frame ended with ours").isEqualTo(-1);
        assertThat(writer.waitFor()).isZero();
    }

    /** Compares what is written with what a stream holds, noting where they first differ. */
    private static final class Comparing extends java.io.OutputStream {
        private final java.io.InputStream expected;
        private final byte[] buffer = new byte[1 << 16];
        private long position;
        private long mismatch = -1;

        Comparing(java.io.InputStream expected) {
            this.expected = expected;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] data, int offset, int length) throws IOException {
            while (length > 0 && mismatch < 0) {
                int n = expected.readNBytes(buffer, 0, Math.min(length, buffer.length));
                int differs = java.util.Arrays.mismatch(buffer, 0, n, data, offset, offset + Math.min(n, length));
                if (n == 0 || differs >= 0) {
                    mismatch = position + Math.max(differs, 0);
                    return;
                }
                position += n;
                offset += n;
                length -= n;
            }
        }
    }

    /** Runs of text-like, repeated, random and constant bytes, so that every block and literal mode occurs. */
    static byte[] mixed(Random random, int size) {
        byte[] data = new byte[size];
        String[] words = {"usr", "share", "lib", "include", "#define ", "struct ", "\n", "\t", "0x", "return ", "{", "}", "int ", "char *"};
        int at = 0;
        while (at < size) {
            int kind = random.nextInt(5);
            int n = Math.min(size - at, 1 + random.nextInt(kind == 4 ? 40_000 : 6_000));
            switch (kind) {
                case 0 -> {
                    for (int i = 0; i < n; i++) {
                        data[at + i] = (byte) random.nextInt(256);
                    }
                }
                case 1 -> java.util.Arrays.fill(data, at, at + n, (byte) random.nextInt(256));
                case 2 -> {
                    int from = at == 0 ? 0 : random.nextInt(at);
                    for (int i = 0; i < n; i++) {
                        data[at + i] = at == 0 ? (byte) i : data[from + i % (at - from)];
                    }
                }
                default -> {
                    int i = 0;
                    while (i < n) {
                        byte[] word = words[random.nextInt(words.length)].getBytes();
                        for (int j = 0; j < word.length && i < n; j++) {
                            data[at + i++] = word[j];
                        }
                    }
                }
            }
            at += n;
        }
        return data;
    }
}
