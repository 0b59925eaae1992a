package dev.layerfold.dedup.codec.recipe;

import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecipeTest {

    private static final String SHA = "ab".repeat(32);

    /** The recipe names the klauspost zstd family without knowing the encoder; both must agree, or versions would be written wrong. */
    @Example
    void namesTheKlauspostFamilyAsItsSettingsDo() {
        assertThat(Recipe.KLAUSPOST_ZSTD).isEqualTo(KlauspostSettings.FAMILY);
        assertThat(Recipe.KLAUSPOST_SPEED_BETTER).isEqualTo(KlauspostSettings.SPEED_BETTER);
    }

    @Property(tries = 200)
    void recipeSurvivesWriteAndRead(@ForAll("ops") List<SkeletonOp> ops, @ForAll("members") List<EncoderSpec> encoders,
                                    @ForAll byte[] trailing) throws IOException {
        SkeletonWriter writer = new SkeletonWriter();
        for (SkeletonOp op : ops) {
            switch (op) {
                case SkeletonOp.Inline inline -> writer.inline(inline.bytes(), 0, inline.bytes().length);
                case SkeletonOp.File file -> writer.file(file.ref(), file.zeroPadded());
            }
        }
        Skeleton skeleton = writer.finish();
        List<GzipMember> members = new ArrayList<>();
        long left = skeleton.tarSize();
        for (int i = 0; i < encoders.size(); i++) {
            long share = i == encoders.size() - 1 ? left : left / 2;
            left -= share;
            members.add(new GzipMember(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) i}, encoders.get(i), share, new byte[8]));
        }
        boolean gzip = !members.isEmpty();
        Recipe recipe = new Recipe(SHA, 12345, gzip ? LayerFormat.GZIP : LayerFormat.TAR, members, gzip ? trailing : new byte[0], skeleton);

        Recipe read = Recipe.read(new ByteArrayInputStream(recipe.toBytes()));

        assertThat(read).isEqualTo(recipe);
        assertThat(normalize(read.skeleton().ops())).isEqualTo(normalize(ops.iterator()));
    }

    @Example
    void typicalHeadersCompressWellInTheSkeleton() {
        SkeletonWriter writer = new SkeletonWriter();
        byte[] header = new byte[512];
        for (int i = 0; i < 1000; i++) {
            byte[] name = ("usr/lib/python3/dist-packages/module" + i + ".py").getBytes();
            System.arraycopy(name, 0, header, 0, name.length);
            writer.inline(header, 0, 512);
            writer.file(new FileRef(String.format("%064x", i), 1000 + i), true);
        }
        assertThat(writer.finish().compressedOps().length).isLessThan(1000 * 80);
    }

    @Example
    void readingSomethingElseSaysItIsNotARecipe() {
        assertThatThrownBy(() -> Recipe.read(new ByteArrayInputStream("PK\u0003\u0004 a zip".getBytes())))
                .isInstanceOf(IOException.class).hasMessageContaining("not a Layerfold recipe");
    }

    @Example
    void readingAFutureVersionSaysSo() {
        byte[] bytes = minimalRecipe().toBytes();
        bytes[4] = (byte) (Recipe.VERSION + 1);
        assertThatThrownBy(() -> Recipe.read(new ByteArrayInputStream(bytes)))
                .isInstanceOf(IOException.class).hasMessageContaining("version " + (Recipe.VERSION + 1) + " is not supported");
    }

    @Example
    void gzipRecipesAreStillWrittenAsVersion2SoThatThePreviousReleaseReadsThem() {
        assertThat(minimalRecipe().toBytes()[4]).isEqualTo((byte) 2);
    }

    @Example
    void zstdFlushPointsSurviveWriteAndReadInAVersion4Recipe() throws IOException {
        Recipe recipe = zstdRecipe(new long[] {512, 200_000, 3 << 20});

        byte[] bytes = recipe.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 4);
        Recipe read = Recipe.read(new ByteArrayInputStream(bytes));
        assertThat(read).isEqualTo(recipe);
        assertThat(((ZstdFrame.Compressed) read.frames().getFirst()).flushPoints()).containsExactly(512, 200_000, 3 << 20);
    }

    /** Version 3 has no flush points: zstd recipes without any are still written so, for the release before to read, and read back alike. */
    @Example
    void zstdRecipesWithoutFlushPointsAreStillWrittenAsVersion3() throws IOException {
        Recipe recipe = zstdRecipe(new long[0]);

        byte[] bytes = recipe.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 3);
        assertThat(Recipe.read(new ByteArrayInputStream(bytes))).isEqualTo(recipe);
    }

    @Example
    void unitPointsSurviveWriteAndReadInAVersion5Recipe() throws IOException {
        Recipe gzip = gzipRecipeOfMembers().withUnits(List.of(unit(0, 0), unit(2, 5000)));
        Recipe zstd = zstdRecipe(new long[] {512}).withUnits(List.of(unit(0, 0), unit(1, 8000)));

        for (Recipe recipe : List.of(gzip, zstd)) {
            byte[] bytes = recipe.toBytes();
            assertThat(bytes[4]).isEqualTo((byte) 5);
            Recipe read = Recipe.read(new ByteArrayInputStream(bytes));
            assertThat(read).isEqualTo(recipe);
            assertThat(read.units()).hasSize(2).extracting(UnitPoint::first).containsExactly(0, recipe == gzip ? 2 : 1);
        }
    }

    /** Recipes without unit points are written as the version before them, which read back without any. */
    @Example
    void recipesWithoutUnitPointsAreStillWrittenAsTheVersionBefore() throws IOException {
        byte[] gzip = gzipRecipeOfMembers().toBytes();
        byte[] zstd = zstdRecipe(new long[] {512}).toBytes();

        assertThat(gzip[4]).isEqualTo((byte) 2);
        assertThat(zstd[4]).isEqualTo((byte) 4);
        assertThat(Recipe.read(new ByteArrayInputStream(gzip)).units()).isEmpty();
        assertThat(Recipe.read(new ByteArrayInputStream(zstd))).isEqualTo(zstdRecipe(new long[] {512}));
    }

    @Example
    void unitPointsOutOfOrderOrPastTheLayerAreRefusedAsDamage() {
        Recipe recipe = gzipRecipeOfMembers();
        assertThatThrownBy(() -> recipe.withUnits(List.of(unit(0, 0), unit(2, 5000), unit(1, 7000)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> recipe.withUnits(List.of(unit(0, 0), unit(3, 5000)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> recipe.withUnits(List.of(unit(0, 0), unit(2, 12000)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> recipe.withUnits(List.of(unit(1, 0), unit(2, 5000)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> recipe.withUnits(List.of(unit(0, 0)))).isInstanceOf(IllegalArgumentException.class);
    }

    private static UnitPoint unit(int first, long blobOffset) {
        byte[] sha = new byte[32];
        sha[0] = (byte) first;
        return new UnitPoint(first, blobOffset, sha);
    }

    /** Three members of 1 MiB of tar each, 12000 bytes of blob. */
    private static Recipe gzipRecipeOfMembers() {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[3 << 20], 0, 3 << 20);
        GzipMember member = new GzipMember(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, EncoderSpec.of("go", 9), 1 << 20, new byte[8]);
        return new Recipe(SHA, 12000, LayerFormat.GZIP, List.of(member, member, member), new byte[0], writer.finish());
    }

    @Example
    void zstdRestartPointsSurviveWriteAndReadInAVersion6Recipe() throws IOException {
        Recipe recipe = zstdRecipeWithRestartPoints(List.of(point(0, 0), point(1 << 20, 300_000), point(2 << 20, 600_000)));

        byte[] bytes = recipe.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 6);
        Recipe read = Recipe.read(new ByteArrayInputStream(bytes));
        assertThat(read).isEqualTo(recipe);
        assertThat(((ZstdFrame.Compressed) read.frames().getFirst()).restartPoints().get(1).patch()).containsExactly(1, 2, 3);
    }

    /** The release before reads version 6 as klauspost's points: a libzstd frame's are written as version 7, a checksum or none. */
    @Example
    void libzstdRestartPointsSurviveWriteAndReadInAVersion7Recipe() throws IOException {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[3 << 20], 0, 3 << 20);
        List<ZstdRestartPoint> points = List.of(new ZstdRestartPoint(0, 0, new byte[0], new byte[32]),
                new ZstdRestartPoint(2 << 20, 500_000, new byte[0], new byte[32]));
        ZstdFrame frame = new ZstdFrame.Compressed(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0x4c}, EncoderSpec.of("libzstd1.5.7", 1, 1, 0, 0, 0),
                3 << 20, new byte[] {1, 0, 0}, new byte[0], new long[0], points);
        Recipe recipe = new Recipe(SHA, 9000, LayerFormat.ZSTD, List.of(), new byte[0], writer.finish(), List.of(frame));

        byte[] bytes = recipe.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 7);
        assertThat(Recipe.read(new ByteArrayInputStream(bytes))).isEqualTo(recipe);
    }

    /**
     * The release before would take a SpeedBetterCompression point's buckets, or a SpeedBestCompression
     * point's index record, for a slot patch: such layers are written as version 8.
     */
    @Property(tries = 2)
    void bucketLevelRestartPointsSurviveWriteAndReadInAVersion8Recipe(@ForAll @IntRange(min = KlauspostSettings.SPEED_BETTER,
            max = KlauspostSettings.SPEED_BEST) int level) throws IOException {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[3 << 20], 0, 3 << 20);
        List<ZstdRestartPoint> points = List.of(point(0, 0), point(2 << 20, 500_000));
        ZstdFrame frame = new ZstdFrame.Compressed(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 4, 0x58},
                EncoderSpec.of(KlauspostSettings.FAMILY, level, 11800), 3 << 20, new byte[] {1, 0, 0}, new byte[4], new long[0], points);
        Recipe recipe = new Recipe(SHA, 9000, LayerFormat.ZSTD, List.of(), new byte[0], writer.finish(), List.of(frame));

        byte[] bytes = recipe.toBytes();

        assertThat(bytes[4]).isEqualTo((byte) 8);
        assertThat(Recipe.read(new ByteArrayInputStream(bytes))).isEqualTo(recipe);
    }

    @Example
    void zstdRestartPointsOutOfOrderOrPastTheFrameAreRefusedAsDamage() {
        assertThatThrownBy(() -> zstdRecipeWithRestartPoints(List.of(point(0, 0), point(2 << 20, 600_000), point(1 << 20, 300_000))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restart point");
        assertThatThrownBy(() -> zstdRecipeWithRestartPoints(List.of(point(0, 0), point(3 << 20, 600_000))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restart point");
        assertThatThrownBy(() -> zstdRecipeWithRestartPoints(List.of(point(1 << 20, 300_000))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("restart point");
    }

    private static ZstdRestartPoint point(long input, long output) {
        return new ZstdRestartPoint(input, output, input == 0 ? new byte[0] : new byte[] {1, 2, 3}, new byte[32]);
    }

    private static Recipe zstdRecipeWithRestartPoints(List<ZstdRestartPoint> points) {
        Recipe plain = zstdRecipe(new long[0]);
        ZstdFrame.Compressed frame = ((ZstdFrame.Compressed) plain.frames().getFirst()).withRestartPoints(points);
        return new Recipe(plain.blobSha256(), plain.blobSize(), plain.format(), List.of(), new byte[0], plain.skeleton(),
                List.of(frame, plain.frames().get(1)));
    }

    @Example
    void flushPointsOutOfOrderOrPastTheFrameAreRefusedAsDamage() {
        assertThatThrownBy(() -> zstdRecipe(new long[] {1000, 1000})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flush point");
        assertThatThrownBy(() -> zstdRecipe(new long[] {(3 << 20) + 1})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flush point");
    }

    private static Recipe zstdRecipe(long[] flushPoints) {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[3 << 20], 0, 3 << 20);
        ZstdFrame frame = new ZstdFrame.Compressed(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 4, 0x68}, EncoderSpec.of("klauspost-zstd", 2, 11800),
                3 << 20, new byte[] {1, 0, 0}, new byte[4], flushPoints);
        ZstdFrame toc = new ZstdFrame.Skippable(new byte[] {0x50, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 7});
        return new Recipe(SHA, 9000, LayerFormat.ZSTD, List.of(), new byte[0], writer.finish(), List.of(frame, toc));
    }

    @Example
    void readingATruncatedRecipeSaysSo() {
        byte[] bytes = minimalRecipe().toBytes();
        assertThatThrownBy(() -> Recipe.read(new ByteArrayInputStream(Arrays.copyOf(bytes, bytes.length - 3))))
                .isInstanceOf(IOException.class).hasMessageContaining("truncated");
    }

    @Example
    void aRecipeClaimingAHugeSkeletonItDoesNotHoldCostsNoMemory() throws IOException {
        byte[] recipe = plainTarRecipeClaimingSkeletonOf(Skeleton.MAX_COMPRESSED_OPS, new byte[100]);

        long before = allocatedByThisThread();
        assertThatThrownBy(() -> Recipe.read(new ByteArrayInputStream(recipe)))
                .isInstanceOf(IOException.class).hasMessageContaining("truncated");
        assertThat(allocatedByThisThread() - before).isLessThan(1 << 20);
    }

    @Example
    void aRecipeClaimingASkeletonOverTheLimitIsRefused() throws IOException {
        byte[] recipe = plainTarRecipeClaimingSkeletonOf(Skeleton.MAX_COMPRESSED_OPS + 1L, new byte[100]);

        assertThatThrownBy(() -> Recipe.read(new ByteArrayInputStream(recipe)))
                .isInstanceOf(IOException.class).hasMessageContaining("skeleton length").hasMessageContaining("more than the limit");
    }

    private static byte[] plainTarRecipeClaimingSkeletonOf(long claimed, byte[] actual) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Recipe.MAGIC);
        out.write(Recipe.VERSION);
        out.write(new byte[32]);
        Varints.write(out, 1024); // blob size
        out.write(0); // plain tar
        Varints.write(out, 1024); // tar size
        Varints.write(out, 0); // files
        Varints.write(out, 0); // file bytes
        Varints.write(out, claimed);
        out.write(actual);
        return out.toByteArray();
    }

    @Example
    void aVersionOneRecipeReadsAsMembersWithoutRestartPoints() throws IOException {
        Recipe recipe = gzipRecipeWithPoints();
        GzipMember member = recipe.members().getFirst();
        ByteArrayOutputStream v1 = new ByteArrayOutputStream();
        v1.write(Recipe.MAGIC);
        v1.write(1);
        v1.write(new byte[32]);
        Varints.write(v1, recipe.blobSize());
        v1.write(1); // gzip
        Varints.write(v1, recipe.skeleton().tarSize());
        Varints.write(v1, 0);
        Varints.write(v1, 0);
        Varints.write(v1, 1); // one member
        Varints.write(v1, member.header().length);
        v1.write(member.header());
        Varints.write(v1, 4);
        v1.write("pigz".getBytes());
        Varints.writeSigned(v1, 9);
        Varints.write(v1, 3);
        for (int p : member.encoder().params()) {
            Varints.writeSigned(v1, p);
        }
        Varints.write(v1, member.uncompressedSize());
        v1.write(member.trailer());
        Varints.write(v1, 0); // trailing bytes
        Varints.write(v1, recipe.skeleton().compressedOps().length);
        v1.write(recipe.skeleton().compressedOps());

        Recipe read = Recipe.read(new ByteArrayInputStream(v1.toByteArray()));

        assertThat(read.members().getFirst()).isEqualTo(member.withRestartPoints(List.of()));
    }

    @Example
    void restartPointsSurviveWriteAndRead() throws IOException {
        Recipe recipe = gzipRecipeWithPoints();
        assertThat(Recipe.read(new ByteArrayInputStream(recipe.toBytes()))).isEqualTo(recipe);
    }

    @Example
    void restartPointsOutOfOrderAreRefusedAsDamage() {
        GzipMember member = gzipRecipeWithPoints().members().getFirst();
        List<RestartPoint> points = List.of(member.restartPoints().get(0), member.restartPoints().get(2), member.restartPoints().get(1));
        assertThatThrownBy(() -> member.withRestartPoints(points)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after point");
    }

    private static Recipe gzipRecipeWithPoints() {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[3 << 20], 0, 3 << 20);
        Skeleton skeleton = writer.finish();
        byte[] sha = new byte[32];
        List<RestartPoint> points = List.of(new RestartPoint(0, 0, List.of(), sha), new RestartPoint(1 << 20, 8 * 4000L, List.of(), sha),
                new RestartPoint(2 << 20, 8 * 8100L, List.of(), sha));
        GzipMember member = new GzipMember(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, 3}, EncoderSpec.of("pigz", 9, 131072, 0, 0),
                3 << 20, new byte[8], points);
        return new Recipe("00".repeat(32), 12000, LayerFormat.GZIP, List.of(member), new byte[0], skeleton);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    @Example
    void encoderSpecsHaveReadableLabels() {
        assertThat(EncoderSpec.of("go", 6).label()).isEqualTo("go-6");
        assertThat(EncoderSpec.of("pigz", 9, 131072).label()).isEqualTo("pigz-9/131072");
        assertThat(EncoderSpec.NONE.label()).isEqualTo("none");
    }

    private static Recipe minimalRecipe() {
        SkeletonWriter writer = new SkeletonWriter();
        writer.inline(new byte[1024], 0, 1024);
        return new Recipe(SHA, 1024, LayerFormat.TAR, List.of(), new byte[0], writer.finish());
    }

    /** Adjacent inline ops are one run of bytes; compare the byte runs and references. */
    private static List<Object> normalize(Iterator<SkeletonOp> ops) {
        List<Object> out = new ArrayList<>();
        ByteArrayOutputStream run = new ByteArrayOutputStream();
        while (ops.hasNext()) {
            SkeletonOp op = ops.next();
            if (op instanceof SkeletonOp.Inline inline) {
                run.writeBytes(inline.bytes());
            } else {
                if (run.size() > 0) {
                    out.add(new SkeletonOp.Inline(run.toByteArray()));
                    run.reset();
                }
                out.add(op);
            }
        }
        if (run.size() > 0) {
            out.add(new SkeletonOp.Inline(run.toByteArray()));
        }
        return out;
    }

    @Provide
    Arbitrary<List<SkeletonOp>> ops() {
        Arbitrary<SkeletonOp> inline = Arbitraries.oneOf(Arbitraries.bytes().array(byte[].class).ofMaxSize(2000),
                Arbitraries.just(new byte[70_000])).map(SkeletonOp.Inline::new);
        Arbitrary<SkeletonOp> file = Combinators.combine(Arbitraries.strings().withChars("0123456789abcdef").ofLength(64),
                Arbitraries.longs().between(0, 1L << 40), Arbitraries.of(true, false))
                .as((sha, size, padded) -> new SkeletonOp.File(new FileRef(sha, size), padded));
        return Arbitraries.oneOf(inline, file).list().ofMaxSize(30);
    }

    @Provide
    Arbitrary<List<EncoderSpec>> members() {
        Arbitrary<EncoderSpec> spec = Combinators.combine(Arbitraries.of("go", "zlib", "pigz", "none"), Arbitraries.integers().between(-2, 9),
                Arbitraries.integers().between(-1, 1 << 20).list().ofMaxSize(3))
                .as((family, level, params) -> family.equals("none") ? EncoderSpec.NONE : new EncoderSpec(family, level, params));
        return spec.list().ofMaxSize(4);
    }
}
