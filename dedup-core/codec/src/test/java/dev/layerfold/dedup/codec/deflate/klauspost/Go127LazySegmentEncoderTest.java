package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.StitchedSegments;
import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Go 1.27's levels 7 to 9 cut at restart points into segments, each encoded from its opener's
 * state rebuilt from the input before it, the blocks up to its point encoded again: the segments,
 * merged at their bit offsets, are the one-piece stream bit for bit, each encoded again from its
 * point alone gives the same bytes, and they are what Go 1.27.3 itself writes. A damaged start bit
 * changes them; a damaged state value changes them, is refused, or is an equivalent state.
 */
class Go127LazySegmentEncoderTest {

    private static final int SPACING = 300_000;

    /** A segment's start (null: the stream's), its bytes, and where it stopped (null: at the end). */
    record Segment(Go127LazyRestartState from, long startBit, byte[] bytes, Go127LazyRestartState next, long nextBit) {
    }

    @ParameterizedTest
    @ValueSource(ints = {9, 7, 8})
    void segmentsFromRebuiltStatesMergeIntoTheOnePieceStream(int level) throws IOException {
        for (byte[] input : List.of(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000), TestInputs.repetitive(2_000_000, level),
                TestInputs.random(600_000, level), mixed(new Random(level), 2_500_000))) {
            List<Segment> segments = segments(input, level, SPACING);
            assertThat(merge(segments)).isEqualTo(whole(input, level));
            for (int i = 1; i < segments.size(); i++) {
                Segment s = segments.get(i);
                Segment again = segment(input, level, s.from(), s.startBit(), s.next() == null ? Long.MAX_VALUE : s.next().input());
                assertThat(again).as("segment %d encoded alone", i).usingRecursiveComparison().isEqualTo(s);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {7, 8, 9})
    void segmentsOfRealFilesAreGo127sOwnStreamAndMostBlockBoundariesArePoints(int level) throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 4_000_000);
        List<Segment> segments = segments(input, level, 1);
        assertThat(merge(segments)).isEqualTo(Go127Oracle.get().compress(level, input));
        // Blocks hold 32768 tokens, 100 to 400 KB of such files: most of their boundaries are points.
        assertThat(segments.size()).isGreaterThan(input.length / 500_000);
    }

    /**
     * A start bit off by one shifts every bit of the segment. A damaged state value may be an
     * equivalent state (a pending byte without a match is searched again with the same result, a
     * literal run far from the skipping threshold skips nothing either way): then the segment is
     * the original's, and otherwise its digest tells. Here: damaged states do change segments.
     */
    @ParameterizedTest
    @ValueSource(ints = {7, 9})
    void aDamagedStartBitChangesTheSegmentAndADamagedStateMay(int level) throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 1_500_000);
        List<Segment> segments = segments(input, level, SPACING);
        assertThat(segments).hasSizeGreaterThan(3);
        int changed = 0;
        for (int i = 1; i < segments.size() - 1; i++) {
            Segment s = segments.get(i);
            Go127LazyRestartState state = s.from();
            assertThat(changes(input, level, state, s.startBit() + 1, s)).isTrue();
            assertThat(changes(input, level, state, s.startBit() - 1, s)).isTrue();
            for (List<Integer> damaged : damaged(state.values())) {
                changed += changes(input, level, Go127LazyRestartState.of(state.input(), damaged), s.startBit(), s) ? 1 : 0;
            }
        }
        assertThat(changed).isGreaterThan(segments.size());
    }

    /** Each value of a point's state off by one (the pending byte flipped), one at a time. */
    private static List<List<Integer>> damaged(List<Integer> values) {
        List<List<Integer>> damaged = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            List<Integer> copy = new ArrayList<>(values);
            copy.set(i, i == 2 ? 1 - values.get(i) : values.get(i) + 1);
            damaged.add(copy);
        }
        return damaged;
    }

    /** Whether the segment encoded from these values is refused or differs from {@code original}'s. */
    private static boolean changes(byte[] input, int level, Go127LazyRestartState state, long startBit, Segment original) throws IOException {
        try {
            long end = original.next() == null ? Long.MAX_VALUE : original.next().input();
            return !Arrays.equals(segment(input, level, state, startBit, end).bytes(), original.bytes());
        } catch (IllegalArgumentException | LayerRebuildException refused) {
            return true;
        }
    }

    static byte[] whole(byte[] input, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KlauspostFlateEncoder encoder = KlauspostFlateEncoder.go127(out, level);
        encoder.write(input, 0, input.length);
        encoder.finish();
        return out.toByteArray();
    }

    /** The input cut at the first restart point every {@code spacing} bytes, each segment resumed from the last's end. */
    static List<Segment> segments(byte[] input, int level, int spacing) throws IOException {
        List<Segment> segments = new ArrayList<>();
        Go127LazyRestartState from = null;
        long startBit = 0;
        while (true) {
            long start = from == null ? 0 : from.input();
            long end = start + spacing;
            Segment s = segment(input, level, from, startBit, end >= input.length ? Long.MAX_VALUE : end);
            segments.add(s);
            if (s.next() == null) {
                return segments;
            }
            from = s.next();
            startBit = s.nextBit();
        }
    }

    /** Encodes from {@code from} up to the first restart point at {@code end} or later, or to the end. */
    static Segment segment(byte[] input, int level, Go127LazyRestartState from, long startBit, long end) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = from == null ? 0 : Math.toIntExact(from.input());
        Go127LazySegmentEncoder encoder = from == null ? Go127LazySegmentEncoder.start(out, level)
                : Go127LazySegmentEncoder.resume(out, level, startBit, from, input, 0, at);
        encoder.endAtBlockFrom(end);
        // Odd-sized writes: the segment's bits must not depend on how its input is cut.
        for (int n; at < input.length && encoder.stopped().isEmpty(); at += n) {
            n = encoder.write(input, at, Math.min(input.length - at, 7919));
        }
        if (encoder.boundary().isPresent()) {
            long nextBit = encoder.bitPosition();
            encoder.endSegment();
            return new Segment(from, startBit, out.toByteArray(), encoder.stopped().get(), nextBit);
        }
        encoder.finish();
        return new Segment(from, startBit, out.toByteArray(), null, -1);
    }

    /** Concatenates segments, OR-ing the byte two of them share. */
    static byte[] merge(List<Segment> segments) {
        return StitchedSegments.merge(segments.stream().map(Segment::bytes).toList(), segments.stream().map(Segment::startBit).toList());
    }

    /** Incompressible runs, runs of few distinct bytes and repeats of earlier runs, so matches reach across points. */
    private static byte[] mixed(Random random, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<byte[]> runs = new ArrayList<>();
        while (out.size() < size) {
            int kind = random.nextInt(3);
            byte[] run;
            if (kind == 2 && !runs.isEmpty()) {
                run = runs.get(random.nextInt(runs.size()));
            } else {
                run = new byte[random.nextInt(90_000)];
                for (int i = 0; i < run.length; i++) {
                    run[i] = (byte) (kind == 0 ? random.nextInt(256) : 'a' + random.nextInt(1 + random.nextInt(20)));
                }
                runs.add(run);
            }
            out.writeBytes(run);
        }
        return out.toByteArray();
    }
}
