package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.UnitPoint;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Layers of many independent gzip members or zstd frames, from the real producers (eStargz by Go's and
 * Go 1.27's compress/gzip, zstd:chunked by containers/storage's compressor, libzstd's frames one after
 * another): the proof cuts them into
 * units of whole members or frames, every unit point reproduces its unit encoded alone, a parallel
 * restore and a restore from any unit give the original bytes, and damaged unit points are caught,
 * never served.
 */
class IndependentUnitsTest {

    /** Small, so that the small layers below have several units; a quarter of the tar for tars under 128 KB. */
    private static final long SPACING = 32_000;
    private static final ExecutorService THREADS = Executors.newFixedThreadPool(2);
    private static final LayerRebuilder PARALLEL = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(THREADS, 2));

    private static Path estargzgen;
    private static Path estargzgen127;

    @BeforeContainer
    static void build() throws Exception {
        estargzgen = Tools.goOracle("estargzgen", "eStargz");
        estargzgen127 = Tools.goOracle("estargzgen", "go1.27.3", "eStargz built with Go 1.27");
    }

    @Property(tries = 3)
    void estargzLayersRestoreInUnits(@ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int level) throws Exception {
        assertUnitsExact(estargz(estargzgen, RandomTars.of(new Random(seed)), level));
    }

    @Property(tries = 3)
    void estargzLayersBuiltWithGo127RestoreInUnits(@ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int level) throws Exception {
        assertUnitsExact(estargz(estargzgen127, RandomTars.of(new Random(seed)), level));
    }

    @Property(tries = 3)
    void zstdChunkedLayersRestoreInUnits(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int level) throws Exception {
        Path dir = Files.createTempDirectory("units-chunked-");
        assertUnitsExact(ZstdOracle.zstdChunked(dir, RandomTars.of(new Random(seed)), level));
    }

    /** System files: thousands of frames, a unit of many. */
    @Example
    void aZstdChunkedLayerOfSystemFilesRestoresInUnits() throws Exception {
        Path dir = Files.createTempDirectory("units-chunked-");
        List<UnitPoint> units = assertUnitsExact(ZstdOracle.zstdChunked(dir, systemTar(Path.of("/usr/share"), 2_000_000), 3));
        assertThat(units).hasSizeGreaterThan(10);
    }

    /** A multi-frame libzstd layer, as concatenated `zstd` outputs make one: each frame from a fresh compressor. */
    @Example
    void aMultiFrameLibzstdLayerRestoresInUnits() throws Exception {
        Path dir = Files.createTempDirectory("units-libzstd-");
        byte[] tar = systemTar(Path.of("/usr/share"), 1_000_000);
        ByteArrayOutputStream layer = new ByteArrayOutputStream();
        for (int at = 0; at < tar.length; at += 200_000) {
            layer.write(ZstdOracle.libzstd(dir, Arrays.copyOfRange(tar, at, Math.min(tar.length, at + 200_000)), 3, 0, true, true));
        }
        assertUnitsExact(layer.toByteArray());
    }

    @Example
    void anEstargzLayerOfSystemFilesRestoresInUnits() throws Exception {
        assertUnitsExact(estargz(estargzgen127, systemTar(Path.of("/usr/lib"), 1_000_000), 9));
    }

    @Example
    void aWrongUnitDigestIsCaughtBeforeTheUnitGoesOut() throws Exception {
        assertDamageCaught(units -> replace(units, 2, new UnitPoint(units.get(2).first(), units.get(2).blobOffset(), new byte[32])));
    }

    @Example
    void aWrongFirstMemberIsCaught() throws Exception {
        assertDamageCaught(units -> {
            int unit = unitOfSeveral(units);
            return replace(units, unit, new UnitPoint(units.get(unit).first() + 1, units.get(unit).blobOffset(), units.get(unit).sha256()));
        });
    }

    @Example
    void aWrongBlobOffsetIsCaught() throws Exception {
        assertDamageCaught(units -> replace(units, 2, new UnitPoint(units.get(2).first(), units.get(2).blobOffset() + 1, units.get(2).sha256())));
    }

    /** A recipe of the version before unit points reads as a layer without any, and restores in one piece. */
    @Example
    void aRecipeWithoutUnitPointsStillRestores() throws Exception {
        byte[] blob = estargz(estargzgen, systemTar(Path.of("/usr/share"), 600_000), 6);
        MemoryFileStore store = new MemoryFileStore();
        Recipe recipe = Recipe.read(new ByteArrayInputStream(
                new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), store).recipe().toBytes()));

        assertThat(recipe.toBytes()[4]).as("version").isEqualTo((byte) 2);
        assertThat(recipe.units()).isEmpty();
        assertThat(PARALLEL.resumePoint(recipe, blob.length - 1)).isEmpty();
        assertThat(rebuild(recipe, store)).isEqualTo(blob);
    }

    /** A whole tar of the first readable files under {@code root}, in path order, of about {@code bytes} bytes. */
    private static byte[] systemTar(Path root, int bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Stream<Path> walk = Files.walk(root); TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile).filter(Files::isReadable).sorted()::iterator) {
                if (out.size() >= bytes) {
                    break;
                }
                byte[] content = Files.readAllBytes(file);
                TarArchiveEntry entry = new TarArchiveEntry(root.relativize(file).toString());
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] estargz(Path generator, byte[] tar, int level) throws Exception {
        Path dir = Files.createTempDirectory("units-estargz-");
        Files.write(dir.resolve("layer.tar"), tar);
        Tools.run(dir, generator.toString(), "-level", Integer.toString(level), "-chunk", "65536", "-o", "layer.estargz", "layer.tar");
        return Files.readAllBytes(dir.resolve("layer.estargz"));
    }

    private record Proven(Recipe recipe, MemoryFileStore store) {
    }

    /** Splits and proves the layer; the recipe as written and read back. */
    private static Proven proven(byte[] blob) throws IOException {
        MemoryFileStore store = new MemoryFileStore();
        Recipe split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(blob), store).recipe();
        ByteArrayOutputStream proof = new ByteArrayOutputStream();
        long spacing = Math.min(SPACING, split.skeleton().tarSize() / 4);
        Recipe recipe = new LayerRebuilder(StandardEncoders.factory()).rebuildFindingRestartPoints(split, store, proof, spacing);
        assertThat(proof.toByteArray()).isEqualTo(blob);
        assertThat(recipe.units()).as("units of %d members and %d frames", split.members().size(), split.frames().size()).hasSizeGreaterThan(1);
        byte[] written = recipe.toBytes();
        assertThat(written[4]).as("version").isEqualTo((byte) 5);
        return new Proven(Recipe.read(new ByteArrayInputStream(written)), store);
    }

    /** Every unit point reproduces its unit and those after it; a whole parallel restore gives the original. */
    private static List<UnitPoint> assertUnitsExact(byte[] blob) throws IOException {
        Proven proven = proven(blob);
        List<UnitPoint> units = proven.recipe().units();
        assertThat(rebuild(proven.recipe(), proven.store())).isEqualTo(blob);
        for (int i = 1; i < units.size(); i++) {
            long offset = i + 1 < units.size() ? units.get(i + 1).blobOffset() - 1 : blob.length - 1;
            LayerRebuilder.Resume resume = PARALLEL.resumePoint(proven.recipe(), offset).orElseThrow();
            assertThat(resume.point()).isEqualTo(i);
            assertThat(resume.blobOffset()).isEqualTo(units.get(i).blobOffset());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PARALLEL.rebuildFrom(proven.recipe(), proven.store(), resume, out);
            assertThat(out.toByteArray()).as("from unit %d", i).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
        }
        assertThat(PARALLEL.resumePoint(proven.recipe(), units.get(1).blobOffset() - 1)).isEmpty();
        return units;
    }

    /** A whole restore and every restore from a unit fail or give the original's bytes; what went out before a failure is the original's. */
    private static void assertDamageCaught(UnaryOperator<List<UnitPoint>> damage) throws Exception {
        byte[] blob = estargz(estargzgen, systemTar(Path.of("/usr/share"), 1_000_000), 6);
        Proven proven = proven(blob);
        Recipe damaged = Recipe.read(new ByteArrayInputStream(proven.recipe().withUnits(damage.apply(proven.recipe().units())).toBytes()));

        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        assertThatThrownBy(() -> PARALLEL.rebuild(damaged, proven.store(), whole)).isInstanceOf(LayerRebuildException.class);
        assertThat(Arrays.copyOf(blob, whole.size())).isEqualTo(whole.toByteArray());
        int caught = 0;
        for (int i = 1; i < damaged.units().size(); i++) {
            LayerRebuilder.Resume resume = PARALLEL.resumePoint(damaged, damaged.units().get(i).blobOffset()).orElseThrow();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                PARALLEL.rebuildFrom(damaged, proven.store(), resume, out);
                assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(blob, (int) resume.blobOffset(), blob.length));
            } catch (LayerRebuildException expected) {
                caught++;
            }
        }
        assertThat(caught).as("restores from the damaged unit and those before it").isGreaterThan(0);
    }

    private static int unitOfSeveral(List<UnitPoint> units) {
        for (int i = 1; i + 1 < units.size(); i++) {
            if (units.get(i + 1).first() - units.get(i).first() > 1) {
                return i;
            }
        }
        throw new AssertionError("no unit of several members");
    }

    private static List<UnitPoint> replace(List<UnitPoint> units, int index, UnitPoint unit) {
        List<UnitPoint> changed = new ArrayList<>(units);
        changed.set(index, unit);
        return changed;
    }

    private static byte[] rebuild(Recipe recipe, MemoryFileStore store) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PARALLEL.rebuild(recipe, store, out);
        return out.toByteArray();
    }
}
