package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.StitchedSegments;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Go's level 1 cut at block boundaries into segments, each ending only where a warm-up rebuilds
 * its match finder's state: the segments, merged at their bit offsets, are the one-piece stream
 * bit for bit, each encoded again from its point alone gives the same bytes, and a damaged start
 * bit or point changes them or is refused.
 */
class GoFastSegmentEncoderTest {

    private static final int SPACING = 3 * GoFastSegmentEncoder.BLOCK;

    /** A segment's start (input offset, bit), its bytes, and where it stopped (input -1: at the end). */
    record Segment(long input, long startBit, byte[] bytes, long nextInput, long nextBit) {
    }

    @Test
    void segmentsFromWarmedUpStatesMergeIntoTheOnePieceStream() throws IOException {
        byte[] periodic = TestInputs.repetitive(2_000_000, 1);
        for (byte[] input : List.of(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000), TestInputs.tarOf(Path.of("/usr/lib"), 2_000_000),
                periodic, TestInputs.random(600_000, 1))) {
            List<Segment> segments = segments(input, SPACING);
            // Periodic data never verifies: its matches of 258 keep the phase the warm-up started with, not the original's.
            assertThat(segments.size()).as("segments").isGreaterThan(input == periodic ? 0 : 1);
            assertThat(merge(segments)).isEqualTo(whole(input));
            for (int i = 1; i < segments.size(); i++) {
                Segment s = segments.get(i);
                Segment again = segment(input, s.input(), s.startBit(), s.nextInput() < 0 ? Long.MAX_VALUE : s.nextInput(), false);
                assertThat(again).as("segment %d encoded alone", i).usingRecursiveComparison().isEqualTo(s);
            }
        }
    }

    @Test
    void printsTheShareOfBlockBoundariesOfRealFilesThatVerify() throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 4_000_000);
        List<Segment> segments = segments(input, GoFastSegmentEncoder.BLOCK);
        long boundaries = input.length / GoFastSegmentEncoder.BLOCK;
        System.out.printf("go-1 /usr/share: %d of %d block boundaries are verified restart points (%.0f%%)%n",
                segments.size() - 1, boundaries, 100.0 * (segments.size() - 1) / boundaries);
        assertThat(segments.size()).isGreaterThan((int) (boundaries / 4));
    }

    @Test
    void aDamagedStartBitOrPointChangesTheSegmentOrIsRefused() throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 1_500_000);
        List<Segment> segments = segments(input, SPACING);
        assertThat(segments).hasSizeGreaterThan(3);
        for (int i = 1; i < segments.size() - 1; i++) {
            Segment s = segments.get(i);
            assertThat(changes(input, s, s.input(), s.startBit() + 1)).isTrue();
            assertThat(changes(input, s, s.input(), s.startBit() - 1)).isTrue();
            assertThat(changes(input, s, s.input() + 1, s.startBit())).isTrue();
        }
    }

    /** Whether the segment encoded from these values is refused or differs from {@code original}'s. */
    private static boolean changes(byte[] input, Segment original, long from, long startBit) throws IOException {
        try {
            long end = original.nextInput() < 0 ? Long.MAX_VALUE : original.nextInput();
            Segment again = segment(input, from, startBit, end, false);
            return !Arrays.equals(again.bytes(), original.bytes());
        } catch (IllegalArgumentException refused) {
            return true;
        }
    }

    static byte[] whole(byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GoFlateEncoder encoder = GoFlateEncoder.create(out, 1);
        encoder.write(input, 0, input.length);
        encoder.finish();
        return out.toByteArray();
    }

    /** The input cut at the first verified boundary every {@code spacing} bytes, each segment resumed from the last's end. */
    static List<Segment> segments(byte[] input, int spacing) throws IOException {
        List<Segment> segments = new ArrayList<>();
        long from = 0;
        long startBit = 0;
        while (true) {
            long end = from + spacing;
            Segment s = segment(input, from, startBit, end >= input.length ? Long.MAX_VALUE : end, true);
            segments.add(s);
            if (s.nextInput() < 0) {
                return segments;
            }
            from = s.nextInput();
            startBit = s.nextBit();
        }
    }

    /** Encodes from input offset {@code from} up to the first qualifying boundary at {@code end} or later, or to the end. */
    static Segment segment(byte[] input, long from, long startBit, long end, boolean verify) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = Math.toIntExact(from);
        GoFastSegmentEncoder encoder = from == 0 ? GoFastSegmentEncoder.start(out)
                : GoFastSegmentEncoder.resume(out, startBit, from, input, 0, at);
        encoder.endAtBlockFrom(end);
        if (verify) {
            encoder.verifyBoundaries(input, 0, at);
        }
        // Odd-sized writes: the segment's bits must not depend on how its input is cut.
        for (int n; at < input.length && !encoder.stopped(); at += n) {
            n = encoder.write(input, at, Math.min(input.length - at, 7919));
        }
        if (encoder.stopped()) {
            long nextBit = encoder.bitPosition();
            encoder.endSegment();
            return new Segment(from, startBit, out.toByteArray(), encoder.end(), nextBit);
        }
        encoder.finish();
        return new Segment(from, startBit, out.toByteArray(), -1, -1);
    }

    static byte[] merge(List<Segment> segments) {
        return StitchedSegments.merge(segments.stream().map(Segment::bytes).toList(), segments.stream().map(Segment::startBit).toList());
    }
}
