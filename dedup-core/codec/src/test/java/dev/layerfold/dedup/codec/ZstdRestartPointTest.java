package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.Varints;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdOracle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Layers written by the Go Writer of klauspost/compress/zstd at its default level (podman's,
 * containerd's, BuildKit's), at SpeedFastest and at SpeedBetterCompression get verified restart points in the dedup split's proof; a parallel
 * restore, and a restore from each point, give the original's bytes; damaged points are caught,
 * never served.
 */
class ZstdRestartPointTest {

    private static final long SPACING = 2 << 20;
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(2);
    private static final LayerRebuilder PARALLEL = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(THREADS, 2));

    @AfterAll
    static void stopThreads() {
        THREADS.shutdownNow();
    }

    @Test
    void systemFilesLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_DEFAULT, 2, TestInputs.tarOf(Path.of("/usr/share"), 11 << 20)));
    }

    @Test
    void binariesLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_DEFAULT, 1, TestInputs.tarOf(Path.of("/usr/lib"), 9 << 20)));
    }

    /** containers/image at zstd levels 1-2: SpeedFastest, one table, 64 KiB blocks and a 4 MiB window. */
    @Test
    void speedFastestLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_FASTEST, 1, TestInputs.tarOf(Path.of("/usr/share"), 9 << 20)));
    }

    /**
     * containers/image at zstd levels 5-9: SpeedBetterCompression, whose long table keeps two positions a slot (buckets), its points
     * twice as far apart as asked.
     */
    @Test
    void speedBetterLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BETTER, 1, TestInputs.tarOf(Path.of("/usr/lib"), 9 << 20)));
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BETTER, 1, RestartPointPropertyTest.mixedTar(new Random(5), 5 << 20)), 2);
    }

    @Test
    void randomTarsRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_DEFAULT, 1, RestartPointPropertyTest.mixedTar(new Random(14), 7 << 20)));
    }

    /**
     * A patch whose slots are gone, or whose entropy state is not one, is caught; one with a slot's position changed may name a position
     * whose bytes match nothing either (a slot patched only so as not to match), so it is never served
     * otherwise than as the original's bytes.
     */
    @Test
    void aWrongPatchIsCaughtOrHarmless() throws Exception {
        assertDamageCaught(p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), new byte[] {0, 0, 0}, p.segmentSha256()));
        assertDamageCaught(p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), new byte[] {3, 1, 2, 3, 0, 0}, p.segmentSha256()));
        for (int at : new int[] {3, 100, 1000}) {
            assertDamageNeverServed(p -> {
                byte[] patch = p.patch();
                patch[at] ^= 1;
                return new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), patch, p.segmentSha256());
            });
        }
    }

    /**
     * At SpeedBetterCompression: a patch without its buckets, or with an input offset a block off, is caught; one whose first bucket's
     * previous position moved (a bucket carried for its newest may not need it) is never served otherwise than as the original's bytes.
     */
    @Test
    void aWrongBucketPatchIsCaughtOrHarmless() throws Exception {
        Proven proven = betterDamageLayer();
        assertDamageCaught(proven, p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), new byte[] {0, 0, 0}, p.segmentSha256()));
        assertDamageCaught(proven, p -> new ZstdRestartPoint(p.inputOffset() + (128 << 10), p.outputOffset(), p.patch(), p.segmentSha256()));
        for (int moved : new int[] {0, 4096, 1 << 20}) {
            assertDamageNeverServed(proven, p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), withFirstBucketsPrevious(p.patch(), moved),
                    p.segmentSha256()));
        }
    }

    /** {@code patch} with its long table's first bucket's previous position {@code distance} bytes back of the point instead. */
    private static byte[] withFirstBucketsPrevious(byte[] patch, int distance) {
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(patch);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.skipNBytes(Varints.read(in));
            out.write(patch, 0, patch.length - in.available());
            long buckets = Varints.read(in);
            assertThat(buckets).as("buckets in the patch").isPositive();
            Varints.write(out, buckets);
            Varints.write(out, Varints.read(in));
            Varints.write(out, Varints.read(in));
            long previous = Varints.read(in);
            assertThat(previous).as("the first bucket's previous position").isNotEqualTo(distance);
            Varints.write(out, distance);
            out.write(in.readAllBytes());
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Proven betterDamageLayer;

    private static Proven betterDamageLayer() throws Exception {
        if (betterDamageLayer == null) {
            betterDamageLayer = proven(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BETTER, 1, TestInputs.tarOf(Path.of("/usr/share"), 9 << 20)));
        }
        return betterDamageLayer;
    }

    @Test
    void aWrongInputOffsetIsCaught() throws Exception {
        assertDamageCaught(p -> new ZstdRestartPoint(p.inputOffset() + (128 << 10), p.outputOffset(), p.patch(), p.segmentSha256()));
    }

    @Test
    void aWrongSegmentDigestIsCaught() throws Exception {
        assertDamageCaught(p -> {
            byte[] sha = p.segmentSha256();
            sha[0] ^= 1;
            return new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), p.patch(), sha);
        });
    }

    /** A layer the damage tests damage, split and proven once: its bytes, store and recipe with points. */
    record Proven(byte[] blob, MemoryFileStore store, Recipe recipe) {
    }

    private static Proven damageLayer;

    private static Proven damageLayer() throws Exception {
        if (damageLayer == null) {
            damageLayer = proven(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_DEFAULT, 1, TestInputs.tarOf(Path.of("/usr/share"), 7 << 20)));
        }
        return damageLayer;
    }

    /** {@code blob} split and proven: its store, and its recipe with points. */
    static Proven proven(byte[] blob) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), store).recipe();
        return new Proven(blob, store, withPoints(split, store, blob));
    }

    private static void assertDamageCaught(UnaryOperator<ZstdRestartPoint> damage) throws Exception {
        assertDamageCaught(damageLayer(), damage);
    }

    private static Damaged assertDamageNeverServed(UnaryOperator<ZstdRestartPoint> damage) throws Exception {
        return assertDamageNeverServed(damageLayer(), damage);
    }

    /** Damages the second point: a full parallel restore fails, and every restore from a point fails or gives the original's bytes. */
    static void assertDamageCaught(Proven proven, UnaryOperator<ZstdRestartPoint> damage) throws Exception {
        Damaged damaged = assertDamageNeverServed(proven, damage);
        assertThatThrownBy(() -> rebuild(PARALLEL, damaged.recipe(), damaged.store())).isInstanceOf(LayerRebuildException.class);
    }

    record Damaged(Recipe recipe, MemoryFileStore store) {
    }

    /** Damages the second point: every restore, whole or from a point, fails or gives the original's bytes, never others. */
    static Damaged assertDamageNeverServed(Proven proven, UnaryOperator<ZstdRestartPoint> damage) throws Exception {
        byte[] blob = proven.blob();
        MemoryFileStore store = proven.store();
        Recipe recipe = proven.recipe();
        ZstdFrame.Compressed frame = (ZstdFrame.Compressed) recipe.frames().getFirst();
        List<ZstdRestartPoint> points = new ArrayList<>(frame.restartPoints());
        assertThat(points).hasSizeGreaterThan(2);
        points.set(1, damage.apply(points.get(1)));
        Recipe damaged = Recipe.read(new ByteArrayInputStream(new Recipe(recipe.blobSha256(), recipe.blobSize(), recipe.format(), List.of(),
                recipe.trailingBytes(), recipe.skeleton(), List.of(frame.withRestartPoints(points))).toBytes()));
        try {
            assertThat(rebuild(PARALLEL, damaged, store)).isEqualTo(blob);
        } catch (LayerRebuildException expected) {
            // caught
        }
        for (LayerRebuilder.Resume resume : resumes(damaged, blob.length)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                PARALLEL.rebuildFrom(damaged, store, resume, out);
            } catch (LayerRebuildException expected) {
                continue;
            }
            assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
        }
        return new Damaged(damaged, store);
    }

    private static void assertRestartsExact(byte[] blob) throws IOException {
        assertRestartsExact(blob, 3);
    }

    /**
     * Splits and proves {@code blob}; asserts that it got at least {@code points} points, and that a parallel restore, and one
     * from each point, give its bytes.
     */
    static void assertRestartsExact(byte[] blob, int atLeast) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), store).recipe();
        Recipe recipe = Recipe.read(new ByteArrayInputStream(withPoints(split, store, blob).toBytes()));
        List<ZstdRestartPoint> points = ((ZstdFrame.Compressed) recipe.frames().getFirst()).restartPoints();
        assertThat(points).as("points every 2 MiB or more of %d bytes", blob.length).hasSizeGreaterThanOrEqualTo(atLeast);

        assertThat(rebuild(PARALLEL, recipe, store)).isEqualTo(blob);
        assertThat(rebuild(new LayerRebuilder(StandardEncoders.factory()), recipe, store)).isEqualTo(blob);
        Set<LayerRebuilder.Resume> resumes = resumes(recipe, blob.length);
        assertThat(resumes).hasSize(points.size() - 1);
        for (LayerRebuilder.Resume resume : resumes) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PARALLEL.rebuildFrom(recipe, store, resume, out);
            assertThat(out.toByteArray()).as("from %d", resume.blobOffset()).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
        }
    }

    /** Where restores of ranges at every 64 KiB of the blob start. */
    private static Set<LayerRebuilder.Resume> resumes(Recipe recipe, int blobLength) {
        Set<LayerRebuilder.Resume> resumes = new LinkedHashSet<>();
        for (long offset = 0; offset < blobLength; offset += 64 << 10) {
            PARALLEL.resumePoint(recipe, offset).ifPresent(resumes::add);
        }
        PARALLEL.resumePoint(recipe, blobLength - 1).ifPresent(resumes::add);
        return resumes;
    }

    /** The proof's rebuild, which finds the points; they are verified because it gave the original bytes. */
    private static Recipe withPoints(Recipe recipe, MemoryFileStore store, byte[] blob) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Recipe proven = new LayerRebuilder(StandardEncoders.factory()).rebuildFindingRestartPoints(recipe, store, out, SPACING);
        assertThat(out.toByteArray()).isEqualTo(blob);
        return proven;
    }

    private static byte[] rebuild(LayerRebuilder rebuilder, Recipe recipe, MemoryFileStore store) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        rebuilder.rebuild(recipe, store, out);
        return out.toByteArray();
    }
}
