package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.StitchedSegments;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Go's levels 4 to 9 cut at block boundaries into segments, each encoded from a state rebuilt
 * from the 32 KiB of input before it and its few values: the segments, merged at their bit
 * offsets, are Go's stream bit for bit, and a damaged start bit or state value changes them.
 */
class GoSegmentEncoderTest {

    private static final int SPACING = 256 * 1024;
    private static final int HISTORY = 32 * 1024;

    /** A segment's start (null: the stream's), its bytes, and where it stopped (null: at the end). */
    record Segment(GoRestartState from, long startBit, byte[] bytes, GoRestartState next, long nextBit) {
    }

    @ParameterizedTest
    @ValueSource(ints = {4, 5, 6, 7, 8, 9, -1})
    void segmentsFromRebuiltStatesMergeIntoGosStream(int level) throws IOException {
        for (byte[] input : List.of(TestInputs.repetitive(2_000_000, level), TestInputs.random(600_000, level),
                TestInputs.tarOf(Path.of("/usr/share"), 3_000_000))) {
            List<Segment> segments = segments(input, level);
            assertThat(segments).hasSizeGreaterThan(2);
            assertThat(merge(segments)).isEqualTo(whole(input, level));
            for (int i = 1; i < segments.size() - 1; i++) {
                Segment again = segment(input, level, segments.get(i).from(), segments.get(i).startBit(), segments.get(i + 1).from().input());
                assertThat(again.bytes()).as("segment %d encoded alone", i).isEqualTo(segments.get(i).bytes());
                assertThat(again.next()).isEqualTo(segments.get(i + 1).from());
                assertThat(again.nextBit()).isEqualTo(segments.get(i + 1).startBit());
            }
        }
    }

    /**
     * A start bit off by one shifts every bit of the segment. A damaged state value may be an
     * equivalent state (a pending byte without a match is searched again with the same result; a
     * window start moved by a byte rarely moves a match): then the segment is the original's, and
     * otherwise its digest tells. Here: some damaged states do change segments, so the digest has
     * something to catch.
     */
    @ParameterizedTest
    @ValueSource(ints = {4, 6, 9})
    void aDamagedStartBitChangesTheSegmentAndADamagedStateMay(int level) throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 1_500_000);
        List<Segment> segments = segments(input, level);
        assertThat(segments.stream().skip(1).anyMatch(s -> s.startBit() % 8 != 0)).isTrue();
        int changed = 0;
        for (int i = 1; i < segments.size() - 1; i++) {
            Segment s = segments.get(i);
            long end = segments.get(i + 1).from().input();
            GoRestartState state = s.from();
            assertThat(changes(input, level, state, s.startBit() + 1, end, s.bytes())).isTrue();
            assertThat(changes(input, level, state, s.startBit() - 1, end, s.bytes())).isTrue();
            for (GoRestartState damaged : List.of(
                    new GoRestartState(state.input(), state.windowStart(), !state.byteAvailable(), state.length(), state.offset()),
                    new GoRestartState(state.input(), state.windowStart() - 1, state.byteAvailable(), state.length(), state.offset()),
                    new GoRestartState(state.input(), state.windowStart(), true, state.length() + 1, state.offset() + 1))) {
                changed += changes(input, level, damaged, s.startBit(), end, s.bytes()) ? 1 : 0;
            }
        }
        assertThat(changed).isPositive();
    }

    /** Whether the segment encoded from {@code state} is refused or differs from {@code original}. */
    private static boolean changes(byte[] input, int level, GoRestartState state, long startBit, long end, byte[] original) throws IOException {
        try {
            return !Arrays.equals(segment(input, level, state, startBit, end).bytes(), original);
        } catch (IllegalArgumentException | IllegalStateException refused) {
            return true;
        }
    }

    static byte[] whole(byte[] input, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GoFlateEncoder encoder = GoFlateEncoder.create(out, level);
        encoder.write(input, 0, input.length);
        encoder.finish();
        return out.toByteArray();
    }

    /** The input cut at the first block boundary every {@link #SPACING} bytes, each segment resumed from the last's state. */
    static List<Segment> segments(byte[] input, int level) throws IOException {
        List<Segment> segments = new ArrayList<>();
        GoRestartState from = null;
        long startBit = 0;
        while (true) {
            long end = (from == null ? 0 : from.input()) + SPACING;
            Segment s = segment(input, level, from, startBit, end >= input.length ? Long.MAX_VALUE : end);
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

    /** Encodes from {@code from} (null: the start) up to the first block ending at {@code end} or later, or to the end. */
    static Segment segment(byte[] input, int level, GoRestartState from, long startBit, long end) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GoSegmentEncoder encoder;
        int at;
        if (from == null) {
            encoder = GoSegmentEncoder.start(out, level);
            at = 0;
        } else {
            at = Math.toIntExact(from.input());
            int history = Math.min(HISTORY, at);
            encoder = GoSegmentEncoder.resume(out, level, startBit, from, input, at - history, history);
        }
        encoder.endAtBlockFrom(end);
        // Odd-sized writes: the segment's bits must not depend on how its input is cut.
        for (int n; at < input.length && encoder.stopped().isEmpty(); at += n) {
            n = encoder.write(input, at, Math.min(input.length - at, 7919));
        }
        GoRestartState next = encoder.boundary().orElse(null);
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
