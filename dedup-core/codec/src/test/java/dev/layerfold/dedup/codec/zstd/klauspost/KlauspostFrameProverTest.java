package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.recipe.Varints;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A frame written in pieces from restart points ({@link KlauspostFrameProver}) is the Go Writer's
 * frame ({@link KlauspostZstdOracle}), and each point's segment, encoded alone from the input before
 * it and its patch ({@link KlauspostZstdEncoder#restartSegment}), is that frame's bytes with the
 * digest the point records, at every level: SpeedFastest and SpeedDefault (slots patched), SpeedBetterCompression
 * (buckets patched) and SpeedBestCompression (tables replayed from the Writer's indexing), on text with matches
 * megabytes back and on a tar of system files, where a warm-up alone leaves the Writer's tables in no segment
 * (docs/design.md).
 */
class KlauspostFrameProverTest {

    private static final KlauspostSettings DEFAULT = new KlauspostSettings(KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.Release.COMPRESS_1_20_3);
    private static final KlauspostSettings BEST = new KlauspostSettings(KlauspostSettings.SPEED_BEST, KlauspostSettings.Release.COMPRESS_1_18_0);
    private static final long SPACING = 2 << 20;

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER,
            KlauspostSettings.SPEED_BEST})
    void mixedInputPointsReproduceTheWritersFrame(int level) throws Exception {
        byte[] input = KlauspostZstdEncoderTest.mixed(new Random(14), 13 << 20);
        assertEveryPointReproducesItsSegment(settings(level), input, KlauspostZstdOracle.compress("1.20.3", level, 1, input));
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER,
            KlauspostSettings.SPEED_BEST})
    void systemFilesPointsReproduceTheWritersFrame(int level) throws Exception {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 12 << 20);
        assertEveryPointReproducesItsSegment(settings(level), input, KlauspostZstdOracle.compress("1.20.3", level, 1, input));
    }

    private static KlauspostSettings settings(int level) {
        return new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_20_3);
    }

    /** The patch is what makes the segment the Writer's: without its slots the warm-up (and entropy state) alone write other bytes. */
    @Test
    void withoutItsPatchedSlotsAPointsSegmentIsAnother() throws Exception {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 7 << 20);
        ZstdRestartPoint point = prove(input).prover().candidates().get(1);
        byte[] withoutSlots = Arrays.copyOf(point.patch(), patchSlotsStart(point.patch()) + 2);
        withoutSlots[withoutSlots.length - 2] = 0;
        withoutSlots[withoutSlots.length - 1] = 0;
        assertThat(sha256(segment(input, point, withoutSlots, 2 << 20))).isNotEqualTo(point.segmentSha256());
        assertThat(sha256(segment(input, point, point.patch(), 2 << 20))).isEqualTo(point.segmentSha256());
    }

    /**
     * At SpeedBetterCompression a patch's buckets make the segment the Writer's: without them, with every bucket's previous
     * position emptied, or from a point a block later, the segment is another.
     */
    @Test
    void withoutItsBucketsAsTheyWereAPointsSegmentIsAnother() throws Exception {
        KlauspostSettings better = settings(KlauspostSettings.SPEED_BETTER);
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 7 << 20);
        ZstdRestartPoint point = prove(better, input).prover().candidates().get(1);
        byte[] patch = point.patch();
        assertThat(sha256(segment(better, input, point, patch, 2 << 20))).isEqualTo(point.segmentSha256());
        byte[] withoutSlots = Arrays.copyOf(patch, patchSlotsStart(patch) + 2);
        withoutSlots[withoutSlots.length - 2] = 0;
        withoutSlots[withoutSlots.length - 1] = 0;
        assertThat(sha256(segment(better, input, point, withoutSlots, 2 << 20))).isNotEqualTo(point.segmentSha256());
        assertThat(sha256(segment(better, input, point, withoutPreviousPositions(patch), 2 << 20))).isNotEqualTo(point.segmentSha256());
        ZstdRestartPoint blockLater = new ZstdRestartPoint(point.inputOffset() + better.blockSize(), point.outputOffset(), patch, point.segmentSha256());
        assertThat(sha256(segment(better, input, blockLater, patch, 2 << 20))).isNotEqualTo(point.segmentSha256());
    }

    /** {@code patch} with each bucket of its long table (SpeedBetterCompression's first) holding no previous position. */
    private static byte[] withoutPreviousPositions(byte[] patch) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(patch);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.skipNBytes(Varints.read(in));
        out.write(patch, 0, patch.length - in.available());
        long buckets = Varints.read(in);
        Varints.write(out, buckets);
        for (long i = 0; i < buckets; i++) {
            Varints.write(out, Varints.read(in));
            Varints.write(out, Varints.read(in));
            Varints.read(in);
            Varints.write(out, 0);
        }
        out.write(in.readAllBytes());
        return out.toByteArray();
    }

    @Test
    void aPatchNamingASlotPastTheTableOrAPositionBeforeTheHistoryIsRefused() {
        byte[] input = KlauspostZstdEncoderTest.mixed(new Random(3), 3 << 20);
        ZstdRestartPoint point = new ZstdRestartPoint(2 << 20, 1, new byte[0], new byte[32]);
        assertThatThrownBy(() -> segment(input, point, new byte[] {1, (byte) 0x80, (byte) 0x80, 0x20, 8}, 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(input, point, new byte[] {1, 0, (byte) 0x80, (byte) 0x80, 0x10}, 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(input, point, new byte[] {1, 0, 8, 0, 7}, 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * At SpeedBestCompression the record's items are what make the segment the Writer's: tables replayed
     * from every position of the window (one gap at its end, so that no position reads past the point)
     * write other bytes where the segment copies a literal run of the window, whose positions the Writer
     * indexed only where it searched (on tars of system files, /usr/share's and /usr/lib's first 7 MiB,
     * they write the same).
     */
    @Test
    void withoutTheWritersSkipsASpeedBestPointsSegmentIsAnother() throws Exception {
        byte[] input = KlauspostZstdEncoderTest.mixed(new Random(14), 5 << 20);
        ZstdRestartPoint point = prove(BEST, input).prover().candidates().get(1);
        int history = KlauspostZstdEncoder.restartHistory(BEST, point.inputOffset());
        ByteArrayOutputStream everyPosition = new ByteArrayOutputStream();
        everyPosition.write(point.patch(), 0, patchSlotsStart(point.patch()));
        Varints.write(everyPosition, 1);
        Varints.write(everyPosition, (long) (history - 16) << 1);
        Varints.write(everyPosition, 16);
        assertThat(sha256(segment(BEST, input, point, everyPosition.toByteArray(), 2 << 20))).isNotEqualTo(point.segmentSha256());
        assertThat(sha256(segment(BEST, input, point, point.patch(), 2 << 20))).isEqualTo(point.segmentSha256());
    }

    /** A record without an entropy state, whose items stop short of the point, or name positions past it, is refused. */
    @Test
    void aSpeedBestRecordThatIsNoneOfTheWritersIsRefused() throws Exception {
        byte[] input = KlauspostZstdEncoderTest.mixed(new Random(3), 3 << 20);
        ZstdRestartPoint point = prove(BEST, input).prover().candidates().get(1);
        byte[] state = Arrays.copyOf(point.patch(), patchSlotsStart(point.patch()));
        int history = KlauspostZstdEncoder.restartHistory(BEST, point.inputOffset());
        assertThatThrownBy(() -> segment(BEST, input, point, new byte[] {0, 0}, 1 << 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(BEST, input, point, concat(state, 0), 1 << 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(BEST, input, point, concat(state, 1, (long) (history - 16) << 1, 17), 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(BEST, input, point, concat(state, 1, (long) (history - 4) << 1, 4), 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> segment(BEST, input, point, concat(state, 1, (long) (history - 16) << 1 | 1, 16), 1 << 20))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** {@code prefix}, then {@code varints}. */
    private static byte[] concat(byte[] prefix, long... varints) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(prefix);
        for (long value : varints) {
            Varints.write(out, value);
        }
        return out.toByteArray();
    }

    private static void assertEveryPointReproducesItsSegment(KlauspostSettings settings, byte[] input, byte[] writers) throws IOException {
        Proof proof = prove(settings, input);
        KlauspostFrameProver prover = proof.prover();
        assertThat(proof.written()).as("the proof's frame").isEqualTo(writers);
        List<ZstdRestartPoint> points = prover.candidates();
        assertThat(points).as("points every 2 MiB of a %d-byte frame", input.length).hasSize((int) ((input.length - 1) / SPACING) + 1);
        for (int i = 0; i < points.size(); i++) {
            ZstdRestartPoint point = points.get(i);
            long end = i + 1 < points.size() ? points.get(i + 1).inputOffset() : input.length;
            byte[] segment = segment(settings, input, point, point.patch(), (int) (end - point.inputOffset()));
            long outputEnd = i + 1 < points.size() ? points.get(i + 1).outputOffset() : writers.length - 4;
            assertThat(segment).as("segment %d", i).isEqualTo(Arrays.copyOfRange(writers, (int) point.outputOffset(), (int) outputEnd));
            assertThat(sha256(segment)).isEqualTo(point.segmentSha256());
        }
    }

    /** Where a patch's slots (or a SpeedBest record's items) start: past its entropy state's length (a varint) and bytes. */
    static int patchSlotsStart(byte[] patch) {
        int length = 0;
        int at = 0;
        for (int shift = 0; ; shift += 7) {
            int b = patch[at++] & 0xff;
            length |= (b & 0x7f) << shift;
            if (b < 0x80) {
                return at + length;
            }
        }
    }

    /** A prover after the frame, and the frame it wrote. */
    private record Proof(KlauspostFrameProver prover, byte[] written) {
    }

    private static Proof prove(byte[] input) throws IOException {
        return prove(DEFAULT, input);
    }

    private static Proof prove(KlauspostSettings settings, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KlauspostFrameProver prover = KlauspostFrameProver.of(settings, input.length, new long[0], SPACING, KlauspostFrameProver.WARM_UP, out)
                .orElseThrow();
        for (int at = 0; at < input.length; at += 100_000) {
            prover.write(input, at, Math.min(100_000, input.length - at));
        }
        prover.finish();
        return new Proof(prover, out.toByteArray());
    }

    /** The segment from {@code point}, {@code length} bytes of input long (to the frame's end if that is shorter). */
    private static byte[] segment(byte[] input, ZstdRestartPoint point, byte[] patch, int length) throws IOException {
        return segment(DEFAULT, input, point, patch, length);
    }

    private static byte[] segment(KlauspostSettings settings, byte[] input, ZstdRestartPoint point, byte[] patch, int length) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int history = KlauspostZstdEncoder.restartHistory(settings, point.inputOffset());
        KlauspostZstdEncoder encoder = KlauspostZstdEncoder.restartSegment(settings, point.inputOffset(), patch, KlauspostFrameProver.WARM_UP,
                input, (int) point.inputOffset() - history, history, out);
        int from = (int) point.inputOffset();
        int n = (int) Math.min(length, input.length - from);
        encoder.write(input, from, n);
        if (from + n == input.length) {
            encoder.finish();
        }
        return out.toByteArray();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
