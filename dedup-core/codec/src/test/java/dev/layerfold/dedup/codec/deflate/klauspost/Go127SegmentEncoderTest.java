package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.StitchedSegments;
import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import org.junit.jupiter.api.Test;
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
 * Go 1.27's levels 1 to 6 cut at block boundaries into segments, each ending only where a warm-up
 * rebuilds its state: the segments, merged at their bit offsets, are the one-piece stream bit for
 * bit, each encoded again from its point alone gives the same bytes, and a damaged start bit or
 * table age changes them or is refused. A damaged warm-up (history) changes them where the
 * segment or the tables used the damaged bytes; elsewhere it gives the same bits, and a restore's
 * digest check catches the rest.
 */
class Go127SegmentEncoderTest {

    private static final int SPACING = 3 * Go127SegmentEncoder.BLOCK;

    /** A segment's start (input offset, bit, table age), its bytes, and where it stopped (input -1: at the end). */
    record Segment(long input, long startBit, int age, byte[] bytes, long nextInput, long nextBit, int nextAge) {
    }

    @ParameterizedTest
    @ValueSource(ints = {6, -1, 1, 2, 3, 4, 5})
    void segmentsFromWarmedUpStatesMergeIntoTheOnePieceStream(int level) throws IOException {
        for (byte[] input : List.of(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000), TestInputs.repetitive(2_000_000, level),
                TestInputs.random(600_000, level), mixed(new Random(level), 2_500_000))) {
            List<Segment> segments = segments(input, level, SPACING);
            assertThat(merge(segments)).isEqualTo(whole(input, level));
            for (int i = 1; i < segments.size(); i++) {
                Segment s = segments.get(i);
                Segment again = segment(input, level, s.input(), s.startBit(), s.age(), s.nextInput() < 0 ? Long.MAX_VALUE : s.nextInput(), false);
                assertThat(again).as("segment %d encoded alone", i).usingRecursiveComparison().isEqualTo(s);
            }
        }
    }

    @Test
    void mostBlockBoundariesOfRealFilesAtLevel6AreRestartPoints() throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 4_000_000);
        List<Segment> segments = segments(input, 6, Go127SegmentEncoder.BLOCK);
        // Each segment ends at the first boundary that verified; the others it crossed did not.
        assertThat(segments.size()).isGreaterThan(input.length / Go127SegmentEncoder.BLOCK / 2);
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 1, 3})
    void aDamagedStartBitOrTableAgeChangesTheSegmentOrIsRefusedAndADamagedWarmUpMay(int level) throws IOException {
        byte[] input = TestInputs.tarOf(Path.of("/usr/share"), 1_500_000);
        List<Segment> segments = segments(input, level, SPACING);
        assertThat(segments).hasSizeGreaterThan(3);
        int changedByHistory = 0;
        for (int i = 1; i < segments.size() - 1; i++) {
            Segment s = segments.get(i);
            assertThat(changes(input, level, s, s.startBit() + 1, s.age())).isTrue();
            assertThat(changes(input, level, s, s.startBit() - 1, s.age())).isTrue();
            assertThat(changes(input, level, s, s.startBit(), s.age() + 1)).isTrue();
            byte[] damaged = input.clone();
            damaged[(int) s.input() - 100] ^= 0x55;
            damaged[(int) s.input() - Go127SegmentEncoder.BLOCK / 2] ^= 0x55;
            changedByHistory += changes(damaged, level, s, s.startBit(), s.age()) ? 1 : 0;
        }
        assertThat(changedByHistory).isPositive();
    }

    /** Whether the segment encoded from these values is refused or differs from {@code original}'s. */
    private static boolean changes(byte[] input, int level, Segment original, long startBit, int age) throws IOException {
        try {
            long end = original.nextInput() < 0 ? Long.MAX_VALUE : original.nextInput();
            Segment again = segment(input, level, original.input(), startBit, age, end, false);
            return !Arrays.equals(again.bytes(), original.bytes());
        } catch (IllegalArgumentException refused) {
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

    /** The input cut at the first verified boundary every {@code spacing} bytes, each segment resumed from the last's end. */
    static List<Segment> segments(byte[] input, int level, int spacing) throws IOException {
        List<Segment> segments = new ArrayList<>();
        long from = 0;
        long startBit = 0;
        int age = 0;
        while (true) {
            long end = from + spacing;
            Segment s = segment(input, level, from, startBit, age, end >= input.length ? Long.MAX_VALUE : end, true);
            segments.add(s);
            if (s.nextInput() < 0) {
                return segments;
            }
            from = s.nextInput();
            startBit = s.nextBit();
            age = s.nextAge();
        }
    }

    /** Encodes from input offset {@code from} up to the first qualifying boundary at {@code end} or later, or to the end. */
    static Segment segment(byte[] input, int level, long from, long startBit, int age, long end, boolean verify) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = Math.toIntExact(from);
        Go127SegmentEncoder encoder = from == 0 ? Go127SegmentEncoder.start(out, level)
                : Go127SegmentEncoder.resume(out, level, startBit, from, age, input, 0, at);
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
            return new Segment(from, startBit, age, out.toByteArray(), encoder.end(), nextBit, encoder.tableAge());
        }
        encoder.finish();
        return new Segment(from, startBit, age, out.toByteArray(), -1, -1, -1);
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
