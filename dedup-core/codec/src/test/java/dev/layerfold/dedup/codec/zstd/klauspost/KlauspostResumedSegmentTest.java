package dev.layerfold.dedup.codec.zstd.klauspost;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A frame's segment resumed at a block boundary ({@link KlauspostZstdEncoder#resumedSegment}) is the
 * Writer's own ({@link KlauspostZstdOracle}) where the warm-up covers all of the input before it,
 * and not where it covers less than the history the match finder's tables reach into (unless there
 * is nothing to match): why a klauspost/compress/zstd restart point carries the match-table slots
 * that differ ({@link KlauspostFrameProver}).
 */
class KlauspostResumedSegmentTest {

    /** Text, constant runs, random bytes and copies from anywhere earlier: matches reach back megabytes. */
    private static byte[] input;
    private static final int POINT = 3 << 20;

    @BeforeAll
    static void mixedInput() {
        input = KlauspostZstdEncoderTest.mixed(new Random(14), 5 << 20);
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void aWarmUpOverAllTheInputBeforeThePointGoesOnAsTheWriterDid(int level) throws Exception {
        KlauspostSettings settings = new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_20_3);
        byte[] frame = KlauspostZstdOracle.compress("1.20.3", level, 1, input);
        byte[] segment = resumed(settings, POINT);
        int from = blockStart(frame, POINT / settings.blockSize());
        assertThat(Arrays.mismatch(segment, Arrays.copyOfRange(frame, from, frame.length - 4))).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void aWarmUpShorterThanTheMatchesReachGoesAnotherWay() throws IOException {
        KlauspostSettings settings = new KlauspostSettings(KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.Release.COMPRESS_1_20_3);
        byte[] whole = KlauspostZstdEncoderTest.encode(settings, input, 1 << 16);
        int from = blockStart(whole, POINT / settings.blockSize());
        byte[] expected = Arrays.copyOfRange(whole, from, whole.length - 4);
        assertThat(resumed(settings, POINT)).isEqualTo(expected);
        assertThat(resumed(settings, 256 << 10)).isNotEqualTo(expected);
    }

    /** Without matches there are no tables to get wrong: the block before the warm-up only joins the window. */
    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void aShortWarmUpOverRandomBytesGoesOnAsTheWriterDid(int level) throws IOException {
        KlauspostSettings settings = new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_20_3);
        byte[] random = new byte[POINT + (1 << 20)];
        new Random(level).nextBytes(random);
        byte[] whole = KlauspostZstdEncoderTest.encode(settings, random, 1 << 16);
        int warmUp = 256 << 10;
        int history = warmUp + settings.blockSize();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KlauspostZstdEncoder encoder = KlauspostZstdEncoder.resumedSegment(settings, random, POINT - history, history, warmUp, POINT - history, out);
        encoder.write(random, POINT, random.length - POINT);
        encoder.finish();
        int from = blockStart(whole, POINT / settings.blockSize());
        assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(whole, from, whole.length - 4));
    }

    private static byte[] resumed(KlauspostSettings settings, int warmUp) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KlauspostZstdEncoder encoder = KlauspostZstdEncoder.resumedSegment(settings, input, POINT - warmUp, warmUp, warmUp, POINT - warmUp, out);
        encoder.write(input, POINT, input.length - POINT);
        encoder.finish();
        return out.toByteArray();
    }

    /** Where block {@code index} of a streamed frame starts: past the 6-byte header and the blocks before it. */
    private static int blockStart(byte[] frame, int index) {
        int at = 6;
        for (int i = 0; i < index; i++) {
            int header = (frame[at] & 0xff) | (frame[at + 1] & 0xff) << 8 | (frame[at + 2] & 0xff) << 16;
            int type = header >>> 1 & 3;
            at += 3 + (type == 1 ? 1 : header >>> 3);
        }
        return at;
    }
}
