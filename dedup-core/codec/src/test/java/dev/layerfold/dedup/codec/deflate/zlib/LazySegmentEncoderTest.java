package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.deflate.StitchedSegments;
import dev.layerfold.dedup.codec.deflate.zlib.LazySegmentEncoder.Deflate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zlib's and GNU gzip's levels 4 to 9 cut at block boundaries into segments, each encoded from a
 * state rebuilt from the 32 KiB of input before it and its four values: the segments, merged at their
 * bit offsets, are the system zlib's or gzip's stream bit for bit, and a damaged start bit or state
 * value changes them. Levels 1 to 3 likewise, cut only at boundaries the proof's check verified,
 * each segment's chains rebuilt by a warm-up over the 64 KiB before it.
 */
class LazySegmentEncoderTest {

    /** A segment's start (null: the stream's), its bytes, and where it stopped (null: at the end). */
    record Segment(LazyRestartState from, long startBit, byte[] bytes, LazyRestartState next, long nextBit) {
    }

    static Stream<Arguments> lazyLevels() {
        return Stream.of(Deflate.values()).flatMap(encoder -> IntStream.rangeClosed(4, 9).mapToObj(level -> Arguments.of(encoder, level)));
    }

    static Stream<Arguments> fastLevels() {
        return Stream.of(Deflate.values()).flatMap(encoder -> IntStream.rangeClosed(1, 3).mapToObj(level -> Arguments.of(encoder, level)));
    }

    static Stream<Arguments> someLevels() {
        return Stream.of(Deflate.values()).flatMap(encoder -> IntStream.of(1, 3, 4, 6, 9).mapToObj(level -> Arguments.of(encoder, level)));
    }

    @ParameterizedTest
    @MethodSource("lazyLevels")
    void segmentsFromRebuiltStatesMergeIntoTheOriginalStream(Deflate encoder, int level) throws IOException {
        List<LazyRestartState> points = new ArrayList<>();
        for (byte[] input : List.of(ReferenceInputs.text(level, 1_200_000), ReferenceInputs.random(level, 500_000),
                TestInputs.tarOf(Path.of("/usr/share"), 2_000_000))) {
            byte[] original = original(encoder, level, input);
            for (int spacing : new int[] {40_000, 120_000}) {
                List<Segment> segments = segments(encoder, input, level, spacing);
                assertThat(segments).hasSizeGreaterThan(2);
                assertThat(merge(segments)).as("spacing %d", spacing).isEqualTo(original);
                for (int i = 1; i < segments.size() - 1; i++) {
                    Segment s = segments.get(i);
                    Segment again = segment(encoder, input, level, s.from(), s.startBit(), segments.get(i + 1).from().input());
                    assertThat(again.bytes()).as("segment %d encoded alone", i).isEqualTo(s.bytes());
                    assertThat(again.next()).isEqualTo(segments.get(i + 1).from());
                    assertThat(again.nextBit()).isEqualTo(segments.get(i + 1).startBit());
                    points.add(s.from());
                }
            }
        }
        // Both places a block ends (after a match, after a literal with the next byte pending), and windows that slid between points.
        assertThat(points).anyMatch(LazyRestartState::matchAvailable).anyMatch(p -> !p.matchAvailable());
        if (encoder == Deflate.ZLIB) {
            // GNU gzip's fewer blocks need not end before a byte with its own match.
            assertThat(points).anyMatch(p -> p.matchAvailable() && p.matchLength() >= 3);
        }
        assertThat(points.stream().map(p -> p.input() - p.windowOffset()).distinct().count()).isGreaterThan(10);
    }

    /**
     * Levels 1 to 3: the segments between verified boundaries, each resumed by a warm-up, merge into the
     * system zlib's or gzip's stream, and each encoded again alone (as a restore does, without checks)
     * is the same; in tars of system files the check finds points, and on random input (no matches, so
     * every position is hashed) nearly every boundary is one.
     */
    @ParameterizedTest
    @MethodSource("fastLevels")
    void segmentsFromVerifiedBoundariesMergeIntoTheOriginalStream(Deflate encoder, int level) throws IOException {
        byte[] random = ReferenceInputs.random(level, 700_000);
        byte[] usrLib = TestInputs.tarOf(Path.of("/usr/lib"), 3_000_000);
        for (byte[] input : List.of(ReferenceInputs.text(level, 1_500_000), random, TestInputs.tarOf(Path.of("/usr/share"), 3_000_000), usrLib)) {
            byte[] original = original(encoder, level, input);
            List<Segment> segments = segments(encoder, input, level, 60_000);
            if (input == random || input == usrLib) {
                assertThat(segments).as("segments of %d bytes", input.length).hasSizeGreaterThan(input == random ? 5 : 1);
            }
            assertThat(merge(segments)).isEqualTo(original);
            for (int i = 1; i < segments.size() - 1; i++) {
                Segment s = segments.get(i);
                Segment again = segment(encoder, input, level, s.from(), s.startBit(), segments.get(i + 1).from().input(), false);
                assertThat(again.bytes()).as("segment %d encoded alone", i).isEqualTo(s.bytes());
                assertThat(again.next()).isEqualTo(segments.get(i + 1).from());
            }
        }
    }

    /**
     * A start bit off by one shifts every bit of the segment. A damaged state value may be an
     * equivalent state (a pending byte without a match is searched again with the same result): then
     * the segment is the original's, and otherwise its digest tells. Here: some damaged states do
     * change segments, so the digest has something to catch.
     */
    @ParameterizedTest
    @MethodSource("someLevels")
    void aDamagedStartBitChangesTheSegmentAndADamagedStateMay(Deflate encoder, int level) throws IOException {
        // GNU gzip's blocks hold up to 32767 symbols: a few hundred KB of tar each.
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), encoder == Deflate.ZLIB ? 1_000_000 : 3_000_000);
        List<Segment> segments = segments(encoder, input, level, 60_000);
        assertThat(segments).hasSizeGreaterThan(3);
        assertThat(segments.stream().skip(1).anyMatch(s -> s.startBit() % 8 != 0)).isTrue();
        int changed = 0;
        for (int i = 1; i < segments.size() - 1; i++) {
            Segment s = segments.get(i);
            long end = segments.get(i + 1).from().input();
            LazyRestartState state = s.from();
            assertThat(changes(encoder, input, level, state, s.startBit() + 1, end, s.bytes())).isTrue();
            assertThat(changes(encoder, input, level, state, s.startBit() - 1, end, s.bytes())).isTrue();
            for (LazyRestartState damaged : List.of(
                    new LazyRestartState(state.input(), state.windowOffset(), !state.matchAvailable(), 2, 0),
                    new LazyRestartState(state.input(), state.windowOffset() - 1, state.matchAvailable(), state.matchLength(), state.matchDistance()),
                    new LazyRestartState(state.input(), state.windowOffset() + 32 * 1024, state.matchAvailable(), state.matchLength(), state.matchDistance()),
                    new LazyRestartState(state.input(), state.windowOffset(), true, state.matchLength() + 1, state.matchDistance() + 1))) {
                changed += changes(encoder, input, level, damaged, s.startBit(), end, s.bytes()) ? 1 : 0;
            }
        }
        assertThat(changed).isPositive();
    }

    /** Whether the segment encoded from {@code state} is refused or differs from {@code original}. */
    private static boolean changes(Deflate encoder, byte[] input, int level, LazyRestartState state, long startBit, long end, byte[] original)
            throws IOException {
        try {
            return !Arrays.equals(segment(encoder, input, level, state, startBit, end).bytes(), original);
        } catch (IllegalArgumentException | IllegalStateException | ArrayIndexOutOfBoundsException refused) {
            return true;
        }
    }

    /** The input cut at the first block boundary every {@code spacing} bytes, each segment resumed from the last's state. */
    static List<Segment> segments(Deflate encoder, byte[] input, int level, int spacing) throws IOException {
        List<Segment> segments = new ArrayList<>();
        LazyRestartState from = null;
        long startBit = 0;
        while (true) {
            long end = (from == null ? 0 : from.input()) + spacing;
            Segment s = segment(encoder, input, level, from, startBit, end >= input.length ? Long.MAX_VALUE : end, true);
            segments.add(s);
            if (s.bytes().length == 0 || segments.size() > 1000) {
                throw new AssertionError("no progress");
            }
            if (s.next() == null) {
                return segments;
            }
            from = s.next();
            startBit = s.nextBit();
        }
    }

    /** The system zlib's or GNU gzip's raw deflate stream of {@code input}. */
    private static byte[] original(Deflate encoder, int level, byte[] input) throws IOException {
        return encoder == Deflate.ZLIB ? SystemZlib.get().run(new ZlibScript(ZlibSettings.of(level)).deflate(input, ZlibFlush.FINISH))
                : GnuGzip.deflate(level, input);
    }

    static Segment segment(Deflate deflate, byte[] input, int level, LazyRestartState from, long startBit, long end) throws IOException {
        return segment(deflate, input, level, from, startBit, end, false);
    }

    /**
     * Encodes from {@code from} (null: the start) up to the first block ending at {@code end} or later
     * (with {@code verify}: the first the proof's check finds to hold), or to the end.
     */
    static Segment segment(Deflate deflate, byte[] input, int level, LazyRestartState from, long startBit, long end, boolean verify)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LazySegmentEncoder encoder;
        int at;
        if (from == null) {
            encoder = LazySegmentEncoder.start(deflate, out, level);
            at = 0;
        } else {
            at = Math.toIntExact(from.input());
            int history = Math.min(LazySegmentEncoder.history(level), at);
            encoder = LazySegmentEncoder.resume(deflate, out, level, startBit, from, input, at - history, history);
        }
        if (verify) {
            int history = Math.min(LazySegmentEncoder.history(level), at);
            encoder.verifyBoundaries(input, at - history, history);
        }
        encoder.endAtBlockFrom(end);
        // Odd-sized writes: the segment's bits must not depend on how its input is cut.
        for (int n; at < input.length && encoder.stopped().isEmpty(); at += n) {
            n = encoder.write(input, at, Math.min(input.length - at, 7919));
        }
        LazyRestartState next = encoder.stopped().orElse(null);
        long nextBit = encoder.bitPosition();
        if (next != null) {
            encoder.endSegment();
        } else {
            encoder.finish();
        }
        return new Segment(from, startBit, out.toByteArray(), next, nextBit);
    }

    /** Concatenates segments, OR-ing the byte two of them share. */
    static byte[] merge(List<Segment> segments) {
        return StitchedSegments.merge(segments.stream().map(Segment::bytes).toList(), segments.stream().map(Segment::startBit).toList());
    }
}
