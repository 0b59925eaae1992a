package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.LayerRebuilder;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.RebuildPlan;
import dev.layerfold.dedup.codec.MemoryFileStore;
import dev.layerfold.dedup.codec.identify.EncoderFamilies;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.RestartSupport;
import dev.layerfold.dedup.codec.restart.SegmentEncoder;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every family with restart points ({@link EncoderFamily#restart}) must do, run once per
 * family: over a generated tar the real producer compressed, the proof finds points, the family's
 * segment encoder opened at each point writes the original's own bits up to the next one, and
 * parallel rebuilds, whole or from a point, give the original bytes. As
 * {@code RestartPointPropertyTest} checks, but per family and against the real producer's output
 * rather than the port's. A subclass says only which family and which oracle.
 */
public abstract class SegmentEncoderContract {

    /** Enough input for several points at {@link #SPACING}, and past pgzip's 1 MiB blocks. */
    private static final int TAR_SIZE = 3 << 20;
    private static final long SPACING = 256 * 1024;
    private static final long SEED = 0x5e9e47L;

    /** The family under test. */
    protected abstract EncoderFamily family();

    /** The real producer the family reproduces. */
    protected abstract EncoderOracle oracle();

    /** The specs whose members are cut into segments: the family's first two candidates with restart points. */
    protected List<EncoderSpec> specs() {
        return family().candidates().stream().map(EncoderFamily.Candidate::spec).filter(spec -> family().restart(spec).isPresent())
                .limit(2).toList();
    }

    @TestFactory
    Stream<DynamicTest> segmentsFromEveryProvenPointReproduceTheRealProducersBytes() {
        assertThat(specs()).as("restartable candidates of %s", family().name()).isNotEmpty();
        return specs().stream().map(spec -> DynamicTest.dynamicTest(spec.toString(), () -> assertSegmentsExact(spec)));
    }

    private void assertSegmentsExact(EncoderSpec spec) throws IOException {
        EncoderFamilies families = EncoderFamilies.standard().family(spec).isPresent()
                ? EncoderFamilies.standard() : EncoderFamilies.standard().with(family());
        byte[] tar = GeneratedInputs.tar(TAR_SIZE, SEED);
        byte[] deflate = oracle().deflate(spec, tar);
        byte[] blob = gzip(deflate, tar);

        MemoryFileStore store = new MemoryFileStore();
        LayerSplitter splitter = new LayerSplitter(new EncoderIdentifier(List.of(spec), families, EncoderIdentifier.DEFAULT_BUDGET));
        Recipe split = splitter.split(new ByteArrayInputStream(blob), store).recipe();
        assertThat(split.members()).hasSize(1);
        assertThat(split.members().getFirst().encoder()).as("the encoder identified in the real producer's member").isEqualTo(spec);

        ByteArrayOutputStream proven = new ByteArrayOutputStream();
        Recipe withPoints = new LayerRebuilder(families).rebuildFindingRestartPoints(split, store, proven, SPACING);
        assertThat(proven.toByteArray()).isEqualTo(blob);
        Recipe recipe = Recipe.read(new ByteArrayInputStream(withPoints.toBytes()));
        GzipMember member = recipe.members().getFirst();
        List<RestartPoint> points = member.restartPoints();
        assertThat(points).as("points of %s", spec).hasSizeGreaterThan(1);

        RestartSupport restart = family().restart(spec).orElseThrow();
        for (int i = 0; i < points.size(); i++) {
            RestartPoint point = points.get(i);
            boolean last = i + 1 == points.size();
            long end = last ? tar.length : points.get(i + 1).inputOffset();
            long endBit = last ? deflate.length * 8L : points.get(i + 1).outputBitOffset();
            ByteArrayOutputStream segment = new ByteArrayOutputStream();
            SegmentEncoder encoder = restart.open(point, last ? Long.MAX_VALUE : end, tar, 0, (int) point.inputOffset(), segment);
            long given = Math.min(tar.length, end + restart.lookahead()) - point.inputOffset();
            encoder.write(tar, (int) point.inputOffset(), (int) given);
            if (last) {
                encoder.finish();
            } else {
                RestartPoint next = points.get(i + 1);
                assertThat(encoder.endAtRestartPoint()).isEqualTo(new SegmentEncoder.Boundary(next.inputOffset(), next.outputBitOffset(), next.state()));
            }
            assertThat(segment.toByteArray()).as("segment %d of %s", i, spec).isEqualTo(ownBits(deflate, point.outputBitOffset(), endBit));
        }

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            LayerRebuilder parallel = new LayerRebuilder(families, new SegmentPool(threads, 2));
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            parallel.rebuild(recipe, store, whole);
            assertThat(whole.toByteArray()).as("parallel rebuild of %s", spec).isEqualTo(blob);
            // From just past each point but the first (the member's start, where a rebuild starts anyway).
            for (int i = 1; i < points.size(); i++) {
                long offset = member.header().length + points.get(i).outputByteOffset() + 1;
                RebuildPlan plan = parallel.plan(recipe, offset);
                // Point i's first whole byte: a point inside a byte shares it with the segment before.
                assertThat(plan.startOffset()).isEqualTo(member.header().length + (points.get(i).outputBitOffset() + 7 >>> 3))
                        .isLessThanOrEqualTo(offset);
                ByteArrayOutputStream tail = new ByteArrayOutputStream();
                plan.run(store, tail);
                assertThat(tail.toByteArray()).as("%s from %d", spec, plan.startOffset())
                        .isEqualTo(Arrays.copyOfRange(blob, (int) plan.startOffset(), blob.length));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** The bytes holding bits {@code [from, to)} of {@code stream}, the bits outside them zero: a segment's own bytes. */
    private static byte[] ownBits(byte[] stream, long from, long to) {
        byte[] bytes = Arrays.copyOfRange(stream, (int) (from >>> 3), (int) ((to + 7) >>> 3));
        bytes[0] &= (byte) (0xff << (from & 7));
        if ((to & 7) != 0) {
            bytes[bytes.length - 1] &= (byte) ((1 << (to & 7)) - 1);
        }
        return bytes;
    }

    /** A gzip member around {@code deflate}, the stream of {@code input}, with a fixed header (no name, no time). */
    private static byte[] gzip(byte[] deflate, byte[] input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(deflate.length + 18);
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3});
        out.writeBytes(deflate);
        CRC32 crc = new CRC32();
        crc.update(input);
        for (long v : new long[] {crc.getValue(), input.length}) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (v >>> (8 * i)));
            }
        }
        return out.toByteArray();
    }
}
