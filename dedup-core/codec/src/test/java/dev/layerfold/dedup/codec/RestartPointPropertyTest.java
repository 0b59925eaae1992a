package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.GoFastSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.golang.GoFlateOracle;
import dev.layerfold.dedup.codec.deflate.golang.GoStoreSegmentEncoder;
import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.deflate.klauspost.Go127SegmentEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibEncoder;
import dev.layerfold.dedup.codec.family.GeneratedInputs;
import dev.layerfold.dedup.codec.identify.EncoderIdentifier;
import dev.layerfold.dedup.codec.identify.RestartableEncoders;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.SegmentEncoder;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Restart points: every point the split records reproduces its segment exactly from a state rebuilt
 * from the input before it, a parallel restore and a restore from any point give the original bytes,
 * and damaged points are caught, never served.
 */
class RestartPointPropertyTest {

    private static final long SPACING = 64 * 1024;
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(2);
    private static final SegmentPool POOL = new SegmentPool(THREADS, 2);
    private static final LayerRebuilder PARALLEL = new LayerRebuilder(StandardEncoders.factory(), POOL);
    private static final EncoderSpec PIGZ_6 = EncoderSpec.of(StandardEncoders.PIGZ, 6, 32 * 1024, 0, 0);
    /** pigz -p 1: one zlib stream, points carry zlib's four values. */
    private static final EncoderSpec PIGZ_ONE_THREAD_6 = EncoderSpec.of(StandardEncoders.PIGZ, 6, 32 * 1024, 0, 1);
    private static final EncoderSpec GO_6 = EncoderSpec.of(StandardEncoders.GO, 6);
    private static final EncoderSpec ZLIB_6 = EncoderSpec.of(StandardEncoders.ZLIB, 6);
    private static final EncoderSpec GZIP_6 = EncoderSpec.of(StandardEncoders.GNU_GZIP, 6);
    /** Families whose blocks end after a count of symbols (at most), each up to 258 bytes: how many. */
    private static final Map<String, Integer> SYMBOLS_PER_BLOCK = Map.of(StandardEncoders.GO, 16384, StandardEncoders.ZLIB, 16383,
            StandardEncoders.GNU_GZIP, 32767);
    private static final EncoderSpec GO127_6 = EncoderSpec.of(StandardEncoders.GO127, 6);
    /** eStargz's and some tools' level. */
    private static final EncoderSpec GO127_9 = EncoderSpec.of(StandardEncoders.GO127, 9);
    /** crane's, ko's and kaniko's: go-containerregistry's gzip.BestSpeed. */
    private static final EncoderSpec GO_1 = EncoderSpec.of(StandardEncoders.GO, 1);
    /** Go 1.8-1.26's greedy levels: points where the proof's check found a warm-up holds. */
    private static final EncoderSpec GO_2 = EncoderSpec.of(StandardEncoders.GO, 2);
    private static final EncoderSpec GO_3 = EncoderSpec.of(StandardEncoders.GO, 3);
    /** Python's {@code gzip.compress(compresslevel=1)} and {@code gzip -1}: points where the proof's check found a warm-up holds. */
    private static final EncoderSpec ZLIB_1 = EncoderSpec.of(StandardEncoders.ZLIB, 1);
    /** zlib's level 0 as a one-shot caller writes it: stored 65535-byte blocks. */
    private static final EncoderSpec ZLIB_0 = EncoderSpec.of(StandardEncoders.ZLIB, 0);
    private static final EncoderSpec GZIP_1 = EncoderSpec.of(StandardEncoders.GNU_GZIP, 1);
    /** Go 1.8-1.26's stored and Huffman-only levels: every block boundary is a point, with no state values and no history. */
    private static final EncoderSpec GO_0 = EncoderSpec.of(StandardEncoders.GO, 0);
    private static final EncoderSpec GO_HUFFMAN_ONLY = EncoderSpec.of(StandardEncoders.GO, -2);
    private static final EncoderSpec GO127_0 = EncoderSpec.of(StandardEncoders.GO127, 0);
    private static final EncoderSpec GO127_HUFFMAN_ONLY = EncoderSpec.of(StandardEncoders.GO127, -2);

    @AfterContainer
    static void stopThreads() {
        THREADS.shutdownNow();
    }

    @Property(tries = 40)
    void everyRecordedPointReproducesItsSegmentAndParallelRestoresAreExact(@ForAll("tars") byte[] tar, @ForAll("restartable") EncoderSpec spec)
            throws IOException {
        assertRestartsExact(layer(tar, spec), spec);
    }

    /** Go 1.27's levels 7 to 9, drawn among all the families above too, on their own: their points carry an opener's state. */
    @Property(tries = 12)
    void everyRecordedGo127LazyPointReproducesItsSegment(@ForAll("tars") byte[] tar, @ForAll("go127Lazy") EncoderSpec spec) throws IOException {
        assertRestartsExact(layer(tar, spec), spec);
    }

    /** Go 1.8-1.26's greedy levels 2 and 3, drawn among all the families above too, on their own: their points hold where a shadow saw them hold. */
    @Property(tries = 10)
    void everyRecordedGreedyGoPointReproducesItsSegment(@ForAll("tars") byte[] tar, @ForAll("goGreedy") EncoderSpec spec) throws IOException {
        assertRestartsExact(layer(tar, spec), spec);
    }

    /**
     * Go 1.8-1.26's levels 0 and -2 on their own (the real installed Go writes the layer): every
     * 65535-byte block boundary is a point, as the spacing here is one block.
     */
    @Property(tries = 8)
    void everyBlockBoundaryOfStoredOrHuffmanOnlyGoIsAPointThatReproducesItsSegment(@ForAll("tars") byte[] tar, @ForAll("goStore") EncoderSpec spec)
            throws IOException {
        assertEveryBlockBoundaryIsAPoint(tar, spec);
    }

    /** On one thread a whole rebuild encodes in one piece (segments would only cost); with two it uses its points. */
    @Test
    void aWholeRebuildOnOneThreadEncodesInOnePiece() throws IOException {
        byte[] tar = tarOfRealFiles(1_500_000);
        byte[] blob = layer(tar, GO_1);
        MemoryFileStore store = new MemoryFileStore();
        Recipe recipe = withPoints(splitter(GO_1).split(new ByteArrayInputStream(blob), store).recipe(), store, blob);
        assertThat(recipe.members().getFirst().restartPoints()).hasSizeGreaterThan(1);
        AtomicInteger oneThreadTasks = new AtomicInteger();
        AtomicInteger twoThreadTasks = new AtomicInteger();
        LayerRebuilder onOne = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(task -> {
            oneThreadTasks.incrementAndGet();
            THREADS.execute(task);
        }, 1));
        LayerRebuilder onTwo = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(task -> {
            twoThreadTasks.incrementAndGet();
            THREADS.execute(task);
        }, 2));

        assertThat(rebuild(onOne, recipe, store)).isEqualTo(blob);
        assertThat(rebuild(onTwo, recipe, store)).isEqualTo(blob);
        assertThat(oneThreadTasks).hasValue(0);
        assertThat(twoThreadTasks.get()).isPositive();
        // A rebuild from a point (a Range) still starts there on one thread.
        LayerRebuilder.Resume resume = onOne.resumePoint(recipe, blob.length - 1).orElseThrow();
        assertThat(resume.point()).isEqualTo(recipe.members().getFirst().restartPoints().size() - 1);
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        onOne.rebuildFrom(recipe, store, resume, tail);
        assertThat(tail.toByteArray()).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
    }

    /**
     * The plan a restore asks for: the whole layer from 0, or from the last point at or before the
     * offset, reading only the files from there on, reserving the same bound either way.
     */
    @Test
    void aPlanStartsAtTheLastPointAtOrBeforeItsOffsetAndReadsTheFilesFromThere() throws IOException {
        byte[] tar = tarOfRealFiles(1_500_000);
        byte[] blob = layer(tar, GO_1);
        MemoryFileStore store = new MemoryFileStore();
        Recipe recipe = withPoints(splitter(GO_1).split(new ByteArrayInputStream(blob), store).recipe(), store, blob);
        GzipMember member = recipe.members().getFirst();
        List<dev.layerfold.dedup.codec.recipe.FileRef> allFiles = new ArrayList<>();
        recipe.skeleton().ops().forEachRemaining(op -> {
            if (op instanceof dev.layerfold.dedup.codec.recipe.SkeletonOp.File file) {
                allFiles.add(file.ref());
            }
        });

        RebuildPlan whole = PARALLEL.plan(recipe, 0);
        assertThat(whole.startOffset()).isZero();
        assertThat(whole.files()).isEqualTo(allFiles);
        assertThat(whole.heapBound()).isEqualTo(PARALLEL.heapBound(recipe));
        assertThat(runPlan(whole, store)).isEqualTo(blob);
        RebuildPlan onePiece = whole.inOnePiece();
        assertThat(onePiece.startOffset()).isZero();
        assertThat(onePiece.heapBound()).as("no segments under way").isLessThan(whole.heapBound());
        assertThat(runPlan(onePiece, store)).isEqualTo(blob);

        RestartPoint last = member.restartPoints().getLast();
        RebuildPlan tail = PARALLEL.plan(recipe, blob.length - 1);
        assertThat(tail.startOffset()).as("the last point's first whole byte")
                .isEqualTo(member.header().length + (last.outputBitOffset() + 7 >>> 3));
        assertThat(tail.heapBound()).isEqualTo(whole.heapBound());
        assertThat(tail.files()).as("the files from the point's history on").isNotEmpty().hasSizeLessThan(allFiles.size())
                .isEqualTo(allFiles.subList(allFiles.size() - tail.files().size(), allFiles.size()));
        assertThat(runPlan(tail, store)).isEqualTo(Arrays.copyOfRange(blob, (int) tail.startOffset(), blob.length));
        assertThat(tail.inOnePiece().startOffset()).as("in one piece a rebuild starts at byte 0").isZero();

        assertThat(new LayerRebuilder(StandardEncoders.factory()).plan(recipe, blob.length - 1).startOffset())
                .as("without a segment pool there is no resuming").isZero();
    }

    private static byte[] runPlan(RebuildPlan plan, MemoryFileStore store) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        plan.run(store, out);
        return out.toByteArray();
    }

    @Test
    void realFilesThroughPgzipAtItsDefaults() throws IOException {
        byte[] tar = tarOfRealFiles(3_500_000);
        for (int level : new int[] {-1, 1, 9}) {
            EncoderSpec pgzip = EncoderSpec.of(StandardEncoders.PGZIP, level, 1 << 20);
            assertRestartsExact(layer(tar, pgzip), pgzip);
        }
    }

    @Test
    void realFilesAtEveryPigzLevel() throws IOException {
        byte[] tar = tarOfRealFiles(1_500_000);
        for (int level = 1; level <= 9; level++) {
            EncoderSpec pigz = EncoderSpec.of(StandardEncoders.PIGZ, level, 128 * 1024, 0, 0);
            assertRestartsExact(layer(tar, pigz), pigz);
        }
    }

    /** Real pigz (-6 and -9, 128 KiB blocks) over a GNU tar of system files, identified as the pipeline does. */
    @Test
    void realPigzLayersGetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        for (int level : new int[] {6, 9}) {
            Tools.sh(dir, "pigz -" + level + " -c layer.tar > layer.tgz");
            byte[] blob = Files.readAllBytes(dir.resolve("layer.tgz"));
            MemoryFileStore store = new MemoryFileStore();
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), store).recipe();
            EncoderSpec pigz = split.members().getFirst().encoder();
            assertThat(pigz.label()).isEqualTo("pigz-" + level + "/131072/0/0");
            assertRestartsExact(blob, pigz);
        }
    }

    /**
     * Real pigz in one thread (-p 1, as on a one-core machine; -6 and -9) over a GNU tar of system
     * files, split as its one zlib stream: a point at every block boundary asked for. (At these levels
     * -p 1 usually writes the bytes several threads write, and the identifier, trying several threads
     * first, then names those; the one-stream spec is named where they differ.)
     */
    @Test
    void realSingleThreadPigzLayersGetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        long tarSize = Files.size(dir.resolve("layer.tar"));
        for (int level : new int[] {6, 9}) {
            Tools.sh(dir, "pigz -p 1 -" + level + " -c layer.tar > layer.tgz");
            EncoderSpec pigz = EncoderSpec.of(StandardEncoders.PIGZ, level, PigzSettings.DEFAULT_BLOCK_SIZE, 0, 1);
            assertThat(assertRestartsExact(Files.readAllBytes(dir.resolve("layer.tgz")), pigz)).as("points of %s", pigz)
                    .hasSize((int) ((tarSize - 1) / RestartableEncoders.spacing(pigz, SPACING).orElseThrow()) + 1);
        }
    }

    /** Go 1.8-1.26's levels 4 to 9 (docker and buildkit write 6) over a GNU tar of system files. */
    @Test
    void realTarsAtGoLevels4To9GetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        byte[] tar = Files.readAllBytes(dir.resolve("layer.tar"));
        for (int level = 4; level <= 9; level++) {
            EncoderSpec go = EncoderSpec.of(StandardEncoders.GO, level);
            assertThat(assertRestartsExact(layer(tar, go), go)).as("points of %s", go).hasSizeGreaterThan(3);
        }
    }

    /** zlib 1.2.13's levels 4 to 9, the system's libz through Python's gzip module (Python tools, and zlib's defaults elsewhere). */
    @Test
    void realZlibLayersAtLevels4To9GetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        for (int level = 4; level <= 9; level++) {
            Tools.sh(dir, "python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.compress(open(\"layer.tar\", \"rb\").read(), "
                    + level + ", mtime=0))' > layer.tgz");
            byte[] blob = Files.readAllBytes(dir.resolve("layer.tgz"));
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            EncoderSpec zlib = split.members().getFirst().encoder();
            assertThat(zlib).isEqualTo(EncoderSpec.of(StandardEncoders.ZLIB, level));
            assertThat(assertRestartsExact(blob, zlib)).as("points of %s", zlib).hasSizeGreaterThan(3);
        }
    }

    /**
     * zlib's level 0 through the JDK's Deflater in one call (all the input, room for all the output), the
     * caller the codec reproduces at that level: identified, and a point at every stored block boundary.
     */
    @Test
    void realZlibLevel0LayersGetAPointAtEveryBlockBoundary() throws Exception {
        byte[] tar = GeneratedInputs.tar(1_000_000, 0);
        Deflater deflater = new Deflater(0, true);
        deflater.setInput(tar);
        deflater.finish();
        byte[] deflate = new byte[tar.length + tar.length / 1000 + 64];
        int length = deflater.deflate(deflate);
        assertThat(deflater.finished()).isTrue();
        deflater.end();
        byte[] blob = gzip(Arrays.copyOf(deflate, length), tar);
        Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
        assertThat(split.members().getFirst().encoder()).isEqualTo(ZLIB_0);
        assertThat(assertRestartsExact(blob, ZLIB_0)).hasSize((tar.length - 1) / ZlibEncoder.MAX_STORED + 1)
                .allSatisfy(point -> assertThat(point.state()).isEmpty());
    }

    /** GNU gzip 1.12's own deflate at levels 4 to 9 (the {@code gzip} binary: scripts, older tools). */
    @Test
    void realGnuGzipLayersAtLevels4To9GetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        for (int level = 4; level <= 9; level++) {
            Tools.sh(dir, "gzip -n -" + level + " -c layer.tar > layer.tgz");
            byte[] blob = Files.readAllBytes(dir.resolve("layer.tgz"));
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            EncoderSpec gzip = split.members().getFirst().encoder();
            assertThat(gzip).isEqualTo(EncoderSpec.of(StandardEncoders.GNU_GZIP, level));
            assertThat(assertRestartsExact(blob, gzip)).as("points of %s", gzip).hasSizeGreaterThan(3);
        }
    }

    /**
     * zlib's levels 1 to 3 (Python's {@code gzip.compress(data, 1)}) and GNU gzip's ({@code gzip -1}) over a GNU
     * tar of system files, compressed by the system's zlib and gzip: identified as the pipeline does, and
     * the proof records block boundaries where a segment resumed by a warm-up was seen to go on as the
     * encoder did. Prints the share of boundaries past each point's spacing that became points.
     */
    @Test
    void realZlibAndGnuGzipLayersAtLevels1To3GetVerifiedPoints(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Tools.sh(dir, "mkdir rootfs && cp -r /usr/include/linux rootfs/ && tar --format=gnu --sort=name -C rootfs -cf layer.tar .");
        for (int level = 1; level <= 3; level++) {
            Tools.sh(dir, "python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.compress(open(\"layer.tar\", \"rb\").read(), "
                    + level + ", mtime=0))' > zlib.tgz && gzip -n -" + level + " -c layer.tar > gzip.tgz");
            for (String producer : List.of("zlib", "gzip")) {
                byte[] blob = Files.readAllBytes(dir.resolve(producer + ".tgz"));
                Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
                EncoderSpec spec = split.members().getFirst().encoder();
                assertThat(spec).isEqualTo(EncoderSpec.of(producer.equals("zlib") ? StandardEncoders.ZLIB : StandardEncoders.GNU_GZIP, level));
                List<RestartPoint> points = assertRestartsExact(blob, spec);
                long segments = split.members().getFirst().uncompressedSize() / SPACING;
                System.out.printf("%s: %d points in %d spacings of input%n", spec.label(), points.size() - 1, segments);
                assertThat(points).as("points of %s", spec).hasSizeGreaterThan((int) segments / 8);
            }
        }
    }

    /**
     * Go 1.27's levels 1 to 6 (docker, buildkit and containerd built with it write 6) over tars of
     * system files, compressed by the real Go 1.27: the layer is identified as Go 1.27's, and the
     * proof tries block boundaries from one block after each point on (the spacing is one block),
     * recording those where a warm-up rebuilds the encoder's state. Prints the share per level.
     */
    @Test
    @ExtendWith(Go127Available.class)
    void realGo127LayersGetVerifiedPointsAtEveryFastLevel() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 3_000_000));
        var go = GoFlateOracle.release(Go127Available.TOOLCHAIN);
        long boundaries = tar.length / Go127SegmentEncoder.BLOCK;
        for (int level : new int[] {6, 1, 2, 3, 4, 5}) {
            byte[] blob = gzip(go.compress(level, tar), tar);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            EncoderSpec spec = split.members().getFirst().encoder();
            assertThat(spec.label()).isEqualTo("go127-" + level);
            List<RestartPoint> points = assertRestartsExact(blob, spec);
            System.out.printf("go127-%d: %d of %d block boundaries are verified restart points (%.0f%%)%n",
                    level, points.size() - 1, boundaries, 100.0 * (points.size() - 1) / boundaries);
            // Level 6's warm-up rebuilds its state nearly everywhere; the faster levels' less often, and after failed
            // checks the proof checks ever fewer boundaries (each check costs a warm-up).
            assertThat(points).as("points of %s", spec).hasSizeGreaterThan((int) (level == 6 ? boundaries * 3 / 4 : boundaries / 16));
        }
    }

    /**
     * Go 1.27's levels 7 to 9 (eStargz and some tools write 9) over tars of system files, compressed
     * by the real Go 1.27: the layer is identified as Go 1.27's, and the proof records the first
     * block boundary past each 64 KiB whose open table was headed by a block a resume can start
     * at. Blocks hold 32768 tokens (100-400 KB of such files), so nearly every segment is one or two
     * blocks long. Prints the points per MB.
     */
    @Test
    @ExtendWith(Go127Available.class)
    void realGo127LayersGetVerifiedPointsAtLevels7To9() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 3_000_000));
        var go = GoFlateOracle.release(Go127Available.TOOLCHAIN);
        for (int level = 7; level <= 9; level++) {
            byte[] blob = gzip(go.compress(level, tar), tar);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            EncoderSpec spec = split.members().getFirst().encoder();
            assertThat(spec.label()).isEqualTo("go127-" + level);
            List<RestartPoint> points = assertRestartsExact(blob, spec);
            System.out.printf("go127-%d: %d verified restart points over %.1f MB%n", level, points.size() - 1, tar.length / 1e6);
            assertThat(points).as("points of %s", spec).hasSizeGreaterThan(tar.length / 500_000);
        }
    }

    /**
     * Go 1.8-1.26's level 1 (crane, ko and kaniko) over tars of system files, compressed by the real
     * installed Go: the layer is identified as Go's level 1, and the proof tries block boundaries
     * from one block after each point on, recording those where a warm-up rebuilds the match
     * finder's state. Prints the share.
     */
    @Test
    void realGoLevel1LayersGetVerifiedPoints() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 3_000_000));
        byte[] blob = gzip(GoFlateOracle.get().compress(1, tar), tar);
        Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
        EncoderSpec spec = split.members().getFirst().encoder();
        assertThat(spec).isEqualTo(GO_1);
        List<RestartPoint> points = assertRestartsExact(blob, spec);
        long boundaries = tar.length / GoFastSegmentEncoder.BLOCK;
        System.out.printf("go-1: %d of %d block boundaries are verified restart points (%.0f%%)%n",
                points.size() - 1, boundaries, 100.0 * (points.size() - 1) / boundaries);
        // After failed checks the proof checks ever fewer boundaries (each check costs a warm-up).
        assertThat(points).as("points of %s", spec).hasSizeGreaterThan((int) (boundaries / 4));
    }

    /**
     * Go 1.8-1.26's greedy levels 2 and 3 over tars of system files, compressed by the real installed Go:
     * the layer is identified as Go's, and the proof records block boundaries where a segment resumed
     * by a warm-up over the 256 KiB before was seen to go on as the encoder did. Prints the share.
     */
    @Test
    void realGoLevels2And3LayersGetVerifiedPoints() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 3_000_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 3_000_000));
        for (EncoderSpec go : List.of(GO_2, GO_3)) {
            byte[] blob = gzip(GoFlateOracle.get().compress(go.level(), tar), tar);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            assertThat(split.members().getFirst().encoder()).isEqualTo(go);
            List<RestartPoint> points = assertRestartsExact(blob, go);
            System.out.printf("%s: %d verified restart points over %.1f MB (one asked for every %d KiB)%n",
                    go.label(), points.size() - 1, tar.length / 1e6, SPACING / 1024);
            assertThat(points).as("points of %s", go).hasSizeGreaterThan((int) (tar.length / SPACING / 4));
        }
    }

    /**
     * Go 1.8-1.26's levels 0 and -2 over tars of system files, compressed by the real installed Go: the
     * layer is identified as Go's at that level, and every block boundary is a verified point.
     */
    @Test
    void realGoLayersAtLevels0AndHuffmanOnlyGetAPointAtEveryBlockBoundary() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 1_500_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 1_500_000));
        for (EncoderSpec go : List.of(GO_0, GO_HUFFMAN_ONLY)) {
            byte[] blob = assertEveryBlockBoundaryIsAPoint(tar, go);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            assertThat(split.members().getFirst().encoder()).isEqualTo(go);
        }
    }

    /**
     * Go 1.27's levels 0 and -2 over tars of system files, compressed by the real Go 1.27: at 0 every
     * block boundary is a point, at -2 those where replaying the open table's windows opens it again
     * (the spacing is two of its 32 KiB windows). Both are identified as Go 1.27's (level 0 by its last
     * block alone).
     */
    @Test
    @ExtendWith(Go127Available.class)
    void realGo127LayersAtLevels0AndHuffmanOnlyGetVerifiedPoints() throws Exception {
        byte[] tar = concat(TestInputs.tarOf(Path.of("/usr/share"), 1_500_000),
                TestInputs.tarOf(Path.of("/usr/lib"), 1_500_000));
        var go = GoFlateOracle.release(Go127Available.TOOLCHAIN);
        for (EncoderSpec spec : List.of(GO127_0, GO127_HUFFMAN_ONLY)) {
            byte[] blob = gzip(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff}, go.compress(spec.level(), tar), tar);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            assertThat(split.members().getFirst().encoder()).isEqualTo(spec);
            List<RestartPoint> points = assertRestartsExact(blob, spec);
            long spacing = RestartableEncoders.spacing(spec, SPACING).orElseThrow();
            System.out.printf("%s: %d points in %d spacings of input%n", spec.label(), points.size() - 1, tar.length / spacing);
            if (spec.equals(GO127_0)) {
                assertThat(points).hasSize((int) ((tar.length - 1) / spacing) + 1).allSatisfy(point -> assertThat(point.state()).isEmpty());
            } else {
                assertThat(points).as("points of %s", spec).hasSizeGreaterThan((int) (tar.length / spacing / 2));
            }
        }
    }

    /**
     * Go streams flushed right before they were closed (eStargz's members), written by the real Go 1.26
     * and 1.27, one level per segment encoder kind: identified as flushed, with points where the
     * unflushed stream has them, and a last segment that flushes, then closes.
     */
    @Test
    @ExtendWith(Go127Available.class)
    void realGoStreamsFlushedBeforeTheirEndGetVerifiedPoints() throws Exception {
        byte[] tar = TestInputs.tarOf(Path.of("/usr/share"), 1_000_000);
        long[] flushAtEnd = {tar.length};
        for (EncoderSpec spec : List.of(GO_6, GO_1, GO_0, GO127_6, GO127_9, GO127_HUFFMAN_ONLY)) {
            var go = spec.family().equals(StandardEncoders.GO127) ? GoFlateOracle.release(Go127Available.TOOLCHAIN) : GoFlateOracle.get();
            byte[] blob = gzip(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff}, go.compress(spec.level(), tar, flushAtEnd), tar);
            EncoderSpec flushed = EncoderSpec.of(spec.family(), spec.level(), StandardEncoders.FLUSHED_BEFORE_FINISH);
            Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), new MemoryFileStore()).recipe();
            assertThat(split.members().getFirst().encoder()).isEqualTo(flushed);
            assertThat(assertRestartsExact(blob, flushed)).as("points of %s", flushed).hasSizeGreaterThan(2);
        }
    }

    /**
     * Checks {@code spec}'s points on the layer the real Go writes of {@code tar} (with compress/gzip's
     * header at these levels: no XFL, OS 255), which it returns: one at every block boundary, once
     * there is more than one block.
     */
    private static byte[] assertEveryBlockBoundaryIsAPoint(byte[] tar, EncoderSpec spec) throws IOException {
        byte[] blob = gzip(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff}, GoFlateOracle.get().compress(spec.level(), tar), tar);
        List<RestartPoint> points = assertRestartsExact(blob, spec);
        int block = GoStoreSegmentEncoder.BLOCK;
        assertThat(points).as("points of %s", spec).hasSize(tar.length > block ? (tar.length + block - 1) / block : 0)
                .allSatisfy(point -> assertThat(point.inputOffset() % block).isZero());
        return blob;
    }

    @Test
    void oldRecipesWithoutPointsStillRestoreThroughTheParallelRebuilder() throws IOException {
        byte[] tar = tarOfRealFiles(600_000);
        EncoderSpec pigz = EncoderSpec.of(StandardEncoders.PIGZ, 6, 32 * 1024, 0, 0);
        byte[] blob = layer(tar, pigz);
        MemoryFileStore store = new MemoryFileStore();
        Recipe recipe = splitter(pigz).split(new ByteArrayInputStream(blob), store).recipe();
        assertThat(recipe.members().getFirst().restartPoints()).isEmpty();
        assertThat(rebuild(PARALLEL, recipe, store)).isEqualTo(blob);
    }

    @Test
    void aWrongBitOffsetIsCaught() throws IOException {
        for (EncoderSpec spec : List.of(PIGZ_6, PIGZ_ONE_THREAD_6, ZLIB_0, GO_6, ZLIB_6, GZIP_6, GO127_6, GO_1, ZLIB_1, GZIP_1, GO127_9, GO_2, GO_3, GO_0,
                GO_HUFFMAN_ONLY, GO127_0, GO127_HUFFMAN_ONLY)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset() + 8, p.state(), p.segmentSha256()));
        }
        for (EncoderSpec spec : List.of(GO_6, ZLIB_6, GZIP_6, GO127_6, GO_1, ZLIB_1, GZIP_1, GO127_9, GO_2, GO_3, GO_0, GO_HUFFMAN_ONLY, GO127_0,
                GO127_HUFFMAN_ONLY)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset() + 1, p.state(), p.segmentSha256()));
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset() - 1, p.state(), p.segmentSha256()));
        }
    }

    @Test
    void aWrongStateValueIsCaught() throws IOException {
        assertDamageCaught(PIGZ_6, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(3), p.segmentSha256()));
        for (EncoderSpec spec : List.of(PIGZ_ONE_THREAD_6, GO_6, ZLIB_6, GZIP_6, ZLIB_1, GZIP_1, GO_2, GO_3)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(3), p.segmentSha256()));
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(), p.segmentSha256()));
        }
        for (EncoderSpec spec : List.of(GO127_6, GO127_HUFFMAN_ONLY)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(), p.segmentSha256()));
        }
        assertDamageCaught(GO127_6, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(1, 0), p.segmentSha256()));
        assertDamageCaught(GO127_6, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(99), p.segmentSha256()));
        for (EncoderSpec spec : List.of(GO_1, GO_0, GO_HUFFMAN_ONLY, GO127_0, ZLIB_0)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(0), p.segmentSha256()));
        }
        assertDamageCaught(GO127_9, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(), p.segmentSha256()));
        assertDamageCaught(GO127_9, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(), List.of(0, 0, 0, 3, 0, 0), p.segmentSha256()));
    }

    /**
     * A Go level 2 or 3 point's values, each damaged: the window's place off its 32 KiB grid, or a
     * pending byte or match, which the greedy levels never carry across a block boundary, is refused.
     */
    @Test
    void aWrongGreedyGoStateValueIsCaught() throws IOException {
        for (EncoderSpec spec : List.of(GO_2, GO_3)) {
            for (int value = 0; value < 4; value++) {
                int damaged = value;
                assertDamageCaught(spec, p -> {
                    List<Integer> state = new ArrayList<>(p.state());
                    state.set(damaged, state.get(damaged) + (damaged == 0 ? 1000 : 1));
                    return new RestartPoint(p.inputOffset(), p.outputBitOffset(), state, p.segmentSha256());
                });
            }
        }
    }

    /**
     * A Go 1.27 level 7-9 point's values, each damaged: the replay from the opener refuses them (no
     * block boundary at the point), the segment differs (the digest tells), or the state is an
     * equivalent one (a literal run far from where skipping starts, a stale offset without a match).
     * Either way no other bytes are served.
     */
    @Test
    void aWrongGo127LazyStateValueNeverServesOtherBytes() throws IOException {
        for (int value = 0; value < 8; value++) {
            int damaged = value;
            assertDamageNeverServed(GO127_9, p -> {
                List<Integer> state = new ArrayList<>(p.state());
                state.set(damaged, damaged == 2 ? 1 - state.get(damaged) : state.get(damaged) + (damaged == 0 ? 1000 : 1));
                return new RestartPoint(p.inputOffset(), p.outputBitOffset(), state, p.segmentSha256());
            });
        }
    }

    /**
     * A Go 1.27 point's table age, damaged, makes the warm-up replay other blocks: it leaves another
     * age (refused) or another table (the digest tells), or, where those blocks give the same state,
     * the original's segment. Either way no other bytes are served.
     */
    @Test
    void aWrongGo127TableAgeNeverServesOtherBytes() throws IOException {
        for (EncoderSpec spec : List.of(GO127_6, GO127_HUFFMAN_ONLY)) {
            for (int delta : new int[] {1, -1, 2}) {
                assertDamageNeverServed(spec, p -> new RestartPoint(p.inputOffset(), p.outputBitOffset(),
                        List.of(Math.max(0, p.state().getFirst() + delta)), p.segmentSha256()));
            }
        }
    }

    /**
     * Go's, zlib's and GNU gzip's values can be damaged into a state that still encodes the same bits (a pending
     * byte whose match is searched again with the same result): then the segment is right, and
     * otherwise its digest tells. Either way no other bytes are served.
     */
    @Test
    void aWrongStateValueOfABitAlignedPointNeverServesOtherBytes() throws IOException {
        for (EncoderSpec spec : List.of(PIGZ_ONE_THREAD_6, GO_6, ZLIB_6, GZIP_6, ZLIB_1, GZIP_1)) {
            for (int value = 0; value < 4; value++) {
                int damaged = value;
                assertDamageNeverServed(spec, p -> {
                    List<Integer> state = new ArrayList<>(p.state());
                    state.set(damaged, state.get(damaged) == 0 ? 1 : state.get(damaged) + (damaged == 0 ? 1000 : 1));
                    return new RestartPoint(p.inputOffset(), p.outputBitOffset(), state, p.segmentSha256());
                });
            }
        }
    }

    @Test
    void aWrongInputOffsetIsCaught() throws IOException {
        for (EncoderSpec spec : List.of(PIGZ_6, PIGZ_ONE_THREAD_6, ZLIB_0, GO_6, ZLIB_6, GZIP_6, GO127_6, GO_1, ZLIB_1, GZIP_1, GO127_9, GO_2, GO_3, GO_0,
                GO_HUFFMAN_ONLY, GO127_0, GO127_HUFFMAN_ONLY)) {
            assertDamageCaught(spec, p -> new RestartPoint(p.inputOffset() + 1024, p.outputBitOffset(), p.state(), p.segmentSha256()));
        }
    }

    @Test
    void aWrongSegmentDigestIsCaught() throws IOException {
        for (EncoderSpec spec : List.of(PIGZ_6, PIGZ_ONE_THREAD_6, ZLIB_0, GO_6, ZLIB_6, GZIP_6, GO127_6, GO_1, ZLIB_1, GZIP_1, GO127_9, GO_2, GO_3, GO_0,
                GO_HUFFMAN_ONLY, GO127_0, GO127_HUFFMAN_ONLY)) {
            assertDamageCaught(spec, p -> {
                byte[] sha = p.segmentSha256();
                sha[0] ^= 1;
                return new RestartPoint(p.inputOffset(), p.outputBitOffset(), p.state(), sha);
            });
        }
    }

    /** Damages the third point: a full parallel restore fails, and every restore from a point fails or gives the original. */
    private static void assertDamageCaught(EncoderSpec spec, UnaryOperator<RestartPoint> damage) throws IOException {
        Damaged damaged = assertDamageNeverServed(spec, damage);
        assertThatThrownBy(() -> rebuild(PARALLEL, damaged.recipe(), damaged.store())).as("%s", spec).isInstanceOf(LayerRebuildException.class);
    }

    /** Damages the third point: every restore, whole or from a point, fails or gives the original's bytes, never others. */
    private record Damaged(Recipe recipe, MemoryFileStore store) {
    }

    private static Damaged assertDamageNeverServed(EncoderSpec spec, UnaryOperator<RestartPoint> damage) throws IOException {
        // GNU gzip's blocks hold up to 32767 symbols: more tar for as many points. Go 1.27 level 7-9's hold 32768 tokens, and
        // the restores below encode at level 9 from every point: binaries, whose blocks hold less input. Go level 1 keeps a
        // point only where its warm-up rebuilds the match table, which depends on the data: files that change neither with
        // this project's sources (on them, the first 600 KB once gave only 2 points) nor with what .ci/run installs (an
        // apt-get that upgraded perl left /usr/share/perl's first 600 KB with 2 points too).
        byte[] tar = spec.equals(GO127_9) ? TestInputs.tarOf(Path.of("/usr/lib"), 500_000)
                : spec.equals(GO_1) ? TestInputs.tarOf(TestInputs.docs(), 600_000)
                : tarOfRealFiles(spec.family().equals(StandardEncoders.GNU_GZIP) ? 2_000_000 : 600_000);
        byte[] blob = layer(tar, spec);
        MemoryFileStore store = new MemoryFileStore();
        Recipe recipe = withPoints(splitter(spec).split(new ByteArrayInputStream(blob), store).recipe(), store, blob);
        GzipMember member = recipe.members().getFirst();
        List<RestartPoint> points = new ArrayList<>(member.restartPoints());
        assertThat(points).as("points of %s", spec).hasSizeGreaterThan(3);
        points.set(2, damage.apply(points.get(2)));
        Recipe damaged = new Recipe(recipe.blobSha256(), recipe.blobSize(), recipe.format(), List.of(member.withRestartPoints(points)),
                recipe.trailingBytes(), recipe.skeleton());
        Recipe reread = Recipe.read(new ByteArrayInputStream(damaged.toBytes()));
        try {
            assertThat(rebuild(PARALLEL, reread, store)).isEqualTo(blob);
        } catch (LayerRebuildException expected) {
            // caught
        }
        // Offsets every 997 bytes map to few points; a rebuild from a point is the same whichever offset chose it.
        Set<LayerRebuilder.Resume> resumes = new LinkedHashSet<>();
        for (long offset = 0; offset < blob.length; offset += 997) {
            PARALLEL.resumePoint(reread, offset).ifPresent(resumes::add);
        }
        for (LayerRebuilder.Resume resume : resumes) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                PARALLEL.rebuildFrom(reread, store, resume, out);
            } catch (LayerRebuildException expected) {
                continue;
            }
            // What a restore serves is the original's tail.
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
        }
        return new Damaged(reread, store);
    }

    /** Checks every point's segment, whole parallel restores and restores from points; returns the points. */
    private static List<RestartPoint> assertRestartsExact(byte[] blob, EncoderSpec spec) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        Recipe split = splitter(spec).split(new ByteArrayInputStream(blob), store).recipe();
        Recipe recipe = Recipe.read(new ByteArrayInputStream(withPoints(split, store, blob).toBytes()));
        GzipMember member = recipe.members().getFirst();
        long tarSize = member.uncompressedSize();
        // Go's, zlib's and GNU gzip's segments end at the first block past the spacing, and a block may hold that many symbols;
        // Go 1.27's at the first boundary a warm-up rebuilds, which the real-file tests count.
        if (!spec.family().equals(StandardEncoders.GO127)
                && tarSize > RestartableEncoders.spacing(spec, SPACING).orElseThrow() + SYMBOLS_PER_BLOCK.getOrDefault(spec.family(), 0) * 258L) {
            assertThat(member.restartPoints()).as("points of %s over %d bytes", spec, tarSize).hasSizeGreaterThan(1);
        }
        byte[] tar = inflate(recipe, store);
        byte[] deflate = Arrays.copyOfRange(blob, member.header().length, blob.length - GzipMember.TRAILER_SIZE);
        List<RestartPoint> points = member.restartPoints();
        for (int i = 0; i < points.size(); i++) {
            RestartPoint point = points.get(i);
            boolean last = i + 1 == points.size();
            long end = last ? tarSize : points.get(i + 1).inputOffset();
            long endBit = last ? deflate.length * 8L : points.get(i + 1).outputBitOffset();
            ByteArrayOutputStream segment = new ByteArrayOutputStream();
            SegmentEncoder encoder = RestartableEncoders.open(spec, point, last ? Long.MAX_VALUE : end, tar, 0, (int) point.inputOffset(), segment);
            long given = Math.min(tarSize, end + RestartableEncoders.lookahead(spec)) - point.inputOffset();
            encoder.write(tar, (int) point.inputOffset(), (int) given);
            if (last) {
                encoder.finish();
            } else {
                SegmentEncoder.Boundary boundary = encoder.endAtRestartPoint();
                RestartPoint next = points.get(i + 1);
                assertThat(boundary).isEqualTo(new SegmentEncoder.Boundary(next.inputOffset(), next.outputBitOffset(), next.state()));
            }
            assertThat(segment.toByteArray()).as("segment %d of %s", i, spec).isEqualTo(ownBits(deflate, point.outputBitOffset(), endBit));
        }
        assertThat(rebuild(PARALLEL, recipe, store)).isEqualTo(blob);
        assertThat(rebuild(new LayerRebuilder(StandardEncoders.factory()), recipe, store)).isEqualTo(blob);
        List<Long> offsets = new ArrayList<>(List.of(0L, blob.length / 3L, blob.length / 2L, blob.length - 1L));
        for (RestartPoint point : points.subList(Math.max(0, points.size() - 4), points.size())) {
            // The byte a point inside a byte shares with the segment before, and the first after it.
            offsets.add(member.header().length + point.outputByteOffset());
            offsets.add(member.header().length + point.outputByteOffset() + 1);
        }
        for (long offset : offsets) {
            var resume = PARALLEL.resumePoint(recipe, offset);
            if (resume.isPresent()) {
                assertThat(resume.get().blobOffset()).isLessThanOrEqualTo(offset);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                PARALLEL.rebuildFrom(recipe, store, resume.get(), out);
                assertThat(out.toByteArray()).as("%s from %d", spec, resume.get().blobOffset())
                        .isEqualTo(Arrays.copyOfRange(blob, (int) resume.get().blobOffset(), blob.length));
            }
        }
        return points;
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

    /** The proof's rebuild, which finds the points; they are verified because it gave the original bytes. */
    private static Recipe withPoints(Recipe recipe, MemoryFileStore store, byte[] blob) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Recipe proven = new LayerRebuilder(StandardEncoders.factory()).rebuildFindingRestartPoints(recipe, store, out, SPACING);
        assertThat(out.toByteArray()).isEqualTo(blob);
        return proven;
    }

    private static LayerSplitter splitter(EncoderSpec spec) {
        return new LayerSplitter(new EncoderIdentifier(List.of(spec), StandardEncoders.factory(), EncoderIdentifier.DEFAULT_BUDGET));
    }

    private static byte[] rebuild(LayerRebuilder rebuilder, Recipe recipe, MemoryFileStore store) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        rebuilder.rebuild(recipe, store, out);
        return out.toByteArray();
    }

    /** The member's input, as a plain tar rebuild of the same skeleton gives it. */
    private static byte[] inflate(Recipe recipe, MemoryFileStore store) throws IOException {
        try (var in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(rebuild(new LayerRebuilder(StandardEncoders.factory()), recipe, store)))) {
            return in.readAllBytes();
        }
    }

    static byte[] layer(byte[] tar, EncoderSpec spec) throws IOException {
        ByteArrayOutputStream deflate = new ByteArrayOutputStream();
        var encoder = StandardEncoders.factory().create(spec, deflate);
        encoder.write(tar, 0, tar.length);
        encoder.finish();
        return gzip(deflate.toByteArray(), tar);
    }

    /** A gzip member of {@code deflate}, the stream of {@code tar}. */
    private static byte[] gzip(byte[] deflate, byte[] tar) throws IOException {
        return gzip(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, 3}, deflate, tar);
    }

    /** A gzip member of {@code deflate} with {@code header}. */
    private static byte[] gzip(byte[] header, byte[] deflate, byte[] tar) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header);
        out.write(deflate);
        CRC32 crc = new CRC32();
        crc.update(tar);
        for (long v : new long[] {crc.getValue(), tar.length}) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (v >>> (8 * i)));
            }
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** Runs a test only where Go 1.27 can be fetched (and always under CI, so that it fails there). */
    static final class Go127Available implements ExecutionCondition {

        static final String TOOLCHAIN = "go1.27.3";

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(
                ExtensionContext context) {
            var whyNot = GoFlateOracle.unavailableReason(TOOLCHAIN);
            if (whyNot.isPresent() && !"true".equalsIgnoreCase(System.getenv("CI"))) {
                System.err.println("GO 1.27 ORACLE UNAVAILABLE, Go 1.27 RESTART POINTS NOT VERIFIED: " + whyNot.get());
                return ConditionEvaluationResult.disabled(whyNot.get());
            }
            return ConditionEvaluationResult.enabled("Go 1.27 is available");
        }
    }

    /** A tar of this module's own sources (real text files), cycled to about {@code size} bytes. */
    static byte[] tarOfRealFiles(int size) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("src/main/java"))) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        TarBlocks tar = new TarBlocks();
        int total = 0;
        for (int round = 0; total < size; round++) {
            for (Path file : files) {
                byte[] body = Files.readAllBytes(file);
                tar.header(round + "/" + file, '0', body.length, false).data(body, (byte) 0);
                total += body.length + 512;
                if (total >= size) {
                    break;
                }
            }
        }
        return tar.raw(new byte[1024]).bytes();
    }

    @Provide
    Arbitrary<EncoderSpec> restartable() {
        Arbitrary<EncoderSpec> pigz = Arbitraries.integers().between(1, 9).flatMap(level -> Arbitraries.of(32 * 1024, 64 * 1024, 128 * 1024)
                .flatMap(block -> Arbitraries.of(0, 1, 2).filter(kind -> kind < 2 || level >= 4)
                        .map(kind -> EncoderSpec.of(StandardEncoders.PIGZ, level, block, kind == 1 ? 1 : 0, kind == 2 ? 1 : 0))));
        Arbitrary<EncoderSpec> pgzip = Arbitraries.of(-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
                .flatMap(level -> Arbitraries.of(20 * 1024, 64 * 1024, 100 * 1024).map(block -> EncoderSpec.of(StandardEncoders.PGZIP, level, block)));
        Arbitrary<EncoderSpec> go = Arbitraries.of(-2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9).flatMap(level -> flushedOrNot(StandardEncoders.GO, level));
        Arbitrary<EncoderSpec> zlib = Arbitraries.integers().between(0, 9).map(level -> EncoderSpec.of(StandardEncoders.ZLIB, level));
        Arbitrary<EncoderSpec> gzip = Arbitraries.integers().between(1, 9).map(level -> EncoderSpec.of(StandardEncoders.GNU_GZIP, level));
        Arbitrary<EncoderSpec> go127 = Arbitraries.of(-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9).flatMap(level -> flushedOrNot(StandardEncoders.GO127, level));
        return Arbitraries.oneOf(pigz, pgzip, go, zlib, gzip, go127);
    }

    /** Go's {@code family} at {@code level}, as written, or flushed right before its end (eStargz's members). */
    private static Arbitrary<EncoderSpec> flushedOrNot(String family, int level) {
        return Arbitraries.of(EncoderSpec.of(family, level), EncoderSpec.of(family, level, StandardEncoders.FLUSHED_BEFORE_FINISH));
    }

    @Provide
    Arbitrary<EncoderSpec> goStore() {
        return Arbitraries.of(GO_0, GO_HUFFMAN_ONLY);
    }

    @Provide
    Arbitrary<EncoderSpec> goGreedy() {
        return Arbitraries.of(GO_2, GO_3);
    }

    @Provide
    Arbitrary<EncoderSpec> go127Lazy() {
        return Arbitraries.of(7, 8, 9).map(level -> EncoderSpec.of(StandardEncoders.GO127, level));
    }

    @Provide
    Arbitrary<byte[]> tars() {
        return Arbitraries.integers().between(1, 1 << 30).flatMap(seed -> Arbitraries.integers().between(20_000, 700_000)
                .map(size -> mixedTar(new Random(seed), size)));
    }

    /** Random files: some incompressible, some of few distinct bytes, some repeating earlier ones (matches across points). */
    static byte[] mixedTar(Random random, int size) {
        TarBlocks tar = new TarBlocks();
        List<byte[]> bodies = new ArrayList<>();
        int total = 0;
        while (total < size) {
            byte[] body;
            int kind = random.nextInt(3);
            if (kind == 2 && !bodies.isEmpty()) {
                body = bodies.get(random.nextInt(bodies.size()));
            } else {
                body = new byte[random.nextInt(60_000)];
                if (kind == 0) {
                    random.nextBytes(body);
                } else {
                    for (int i = 0; i < body.length; i++) {
                        body[i] = (byte) ('a' + random.nextInt(1 + random.nextInt(20)));
                    }
                }
                bodies.add(body);
            }
            tar.header("f" + total, '0', body.length, false).data(body, (byte) 0);
            total += body.length + 512;
        }
        return tar.raw(new byte[1024]).bytes();
    }
}
