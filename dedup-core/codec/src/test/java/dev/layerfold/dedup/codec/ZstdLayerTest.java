package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.recipe.LayerFormat;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdOracle;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * zstd layers made by the real producers ({@link ZstdOracle}), split, identified and rebuilt byte for
 * byte with the production encoders: libzstd 1.5.7 through zstd-jni, single- and multi-threaded, with
 * and without the size pledged and the checksum, one frame or several with skippable frames between;
 * klauspost/compress/zstd's Writer at every level (compress 1.18.0 and 1.20.3; 1.17.7 told by its blocks) through its Java port, alone
 * and as containers/storage's zstd:chunked compressor drives it (a frame per file, the last flushed); and the
 * producers not reproduced (other klauspost/compress releases and levels, other libzstd releases) reported with
 * the producer their frames point to, never rebuilt.
 */
class ZstdLayerTest {

    @TempDir
    static Path shared;
    /** System files, about 2 MB of tar (under libzstd's smallest multi-threaded job). */
    static byte[] systemTar;
    /** The same files four times over with a binary between, about 9 MB: the CLI's level 3 compresses it in two jobs. */
    static byte[] largeTar;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeTars() throws Exception {
        Tools.sh(shared, "mkdir -p rootfs/usr/include rootfs/usr/bin && cp /usr/bin/tar rootfs/usr/bin/"
                + " && find /usr/include/linux -maxdepth 1 -type f | sort | sed -n 1,250p | xargs cp -t rootfs/usr/include"
                + " && tar --format=posix -C rootfs -cf layer.tar ."
                + " && for i in 1 2 3 4; do cp -r rootfs/usr rootfs/usr$i; done && cp /usr/bin/perl rootfs/ 2>/dev/null || true"
                + " && tar --format=posix -C rootfs -cf large.tar .");
        systemTar = Files.readAllBytes(shared.resolve("layer.tar"));
        largeTar = Files.readAllBytes(shared.resolve("large.tar"));
    }

    @ParameterizedTest(name = "level {0}, {1} workers, size pledged {2}, checksum {3}")
    @CsvSource({"3, 1, true, true", "3, 1, false, true", "3, 0, true, true", "3, 0, false, false", "1, 1, true, true", "1, 0, false, true",
            "9, 1, false, true", "19, 0, true, true", "19, 1, true, false", "12, 0, false, true", "6, 1, true, true"})
    void libzstdLayersOfSystemFilesAreCovered(int level, int workers, boolean pledged, boolean checksum) throws Exception {
        byte[] layer = ZstdOracle.libzstd(dir, systemTar, level, workers, pledged, checksum);

        assertCovered(layer, "libzstd1.5.7-" + level + "/" + workers + "/" + (pledged ? 1 : 0) + "/" + (checksum ? 1 : 0) + "/0");
    }

    /** Larger than one multi-threaded job: the CLI's default (one worker) writes other blocks than one thread does. */
    @ParameterizedTest(name = "level {0}, {1} workers, size pledged {2}")
    @CsvSource({"3, 1, true", "3, 1, false", "3, 0, true", "1, 1, false", "7, 1, true"})
    void libzstdLayersLargerThanAJobAreCovered(int level, int workers, boolean pledged) throws Exception {
        byte[] layer = ZstdOracle.libzstd(dir, largeTar, level, workers, pledged, true);

        assertCovered(layer, "libzstd1.5.7-" + level + "/" + workers + "/" + (pledged ? 1 : 0) + "/1/0");
    }

    /**
     * A tar of whole 128 KiB blocks, ended after its input (the CLI reading a pipe) or with it: libzstd
     * writes an empty last block in the first case only, and only single-threaded (a worker holds the
     * input back until the end either way).
     */
    @ParameterizedTest(name = "level {0}, {1} workers, ended after the input {2}")
    @CsvSource({"3, 0, true", "3, 0, false", "3, 1, true", "3, 1, false", "19, 0, true"})
    void libzstdLayersOfWholeBlocksAreCoveredHoweverTheyWereEnded(int level, int workers, boolean endAfter) throws Exception {
        byte[] tar = java.util.Arrays.copyOf(systemTar, (systemTar.length / (128 * 1024) + 1) * 128 * 1024);
        byte[] layer = ZstdOracle.libzstd(dir, tar, level, workers, false, true, endAfter);

        assertCovered(layer, "libzstd1.5.7-" + level + "/" + workers + "/0/1/" + (endAfter && workers == 0 ? 1 : 0));
    }

    @Property(tries = 12)
    void libzstdLayersOfRandomTarsAreCovered(@ForAll long seed, @ForAll @IntRange(min = 1, max = 19) int level, @ForAll boolean pledged,
                                             @ForAll boolean checksum) throws Exception {
        Path work = Files.createTempDirectory("zstd-random-");
        byte[] tar = RandomTars.of(new Random(seed));
        byte[] layer = ZstdOracle.libzstd(work, tar, level, 0, pledged, checksum);

        SplitResult split = assertRebuilt(layer);
        // Neighbouring levels may write the same bytes for a small tar: the rebuild above proves the one taken.
        assertThat(split.identifications()).singleElement().satisfies(id -> assertThat(id.encoder().family()).isEqualTo("libzstd1.5.7"));
    }

    @Test
    void severalFramesWithSkippableFramesBetweenAreCovered() throws Exception {
        byte[] first = ZstdOracle.libzstd(dir, java.util.Arrays.copyOf(systemTar, 1 << 20), 3, 0, true, true);
        byte[] second = ZstdOracle.libzstd(dir, java.util.Arrays.copyOfRange(systemTar, 1 << 20, systemTar.length), 9, 0, false, false);
        byte[] skippable = {0x5e, 0x2a, 0x4d, 0x18, 5, 0, 0, 0, 't', 'o', 'c', '!', '\n'};
        byte[] layer = concat(skippable, first, skippable, second, skippable);

        SplitResult split = assertRebuilt(layer);

        assertThat(split.identifications()).extracting(id -> id.encoder().label()).containsExactly("libzstd1.5.7-3/0/1/1/0", "libzstd1.5.7-9/0/0/0/0");
        assertThat(split.recipe().frames()).hasSize(5).filteredOn(f -> f instanceof ZstdFrame.Skippable).hasSize(3);
    }

    /**
     * podman, buildah, skopeo, containerd at their default (containers/image's zstd level 3, the
     * Writer's SpeedDefault), at SpeedFastest (zstd levels 1-2), SpeedBetterCompression (6-9) and
     * SpeedBestCompression (10 and up) with compress 1.18.0: identified (the default by the first
     * candidate tried; the others after the levels tried before them, each dropped at its first
     * block), rebuilt.
     */
    @ParameterizedTest(name = "level {0}, {1}, GOMAXPROCS {2}")
    @CsvSource({"2, system, 1, 1", "2, system, 4, 1", "2, large, 2, 1", "1, system, 2, 1", "1, large, 1, 1", "3, system, 2, 3", "3, large, 1, 3",
            "4, system, 2, 5"})
    void klauspostLayersAreCoveredAndIdentified(int level, String which, int threads, int candidates) throws Exception {
        byte[] tar = which.equals("system") ? systemTar : largeTar;
        byte[] layer = KlauspostZstdOracle.compress(level, threads, tar);

        SplitResult split = assertRebuilt(layer);

        assertThat(split.identifications()).singleElement().satisfies(id -> {
            assertThat(id.encoder().label()).isEqualTo("klauspost-zstd-" + level + "/11800");
            assertThat(id.candidates()).as("candidates run").isEqualTo(candidates);
        });
    }

    @Property(tries = 12)
    void klauspostLayersOfRandomTarsAreCovered(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int level) throws Exception {
        byte[] tar = RandomTars.of(new Random(seed));
        byte[] layer = KlauspostZstdOracle.compress(level, 2, tar);

        SplitResult split = assertRebuilt(layer);
        assertThat(split.identifications()).singleElement().satisfies(id -> assertThat(id.encoder().label()).isEqualTo("klauspost-zstd-" + level + "/11800"));
    }

    /**
     * podman 5.0 (compress 1.17.7) writes a block of one repeated byte as a compressed block where
     * 1.17.8 on write an RLE block, and is otherwise 1.18.0's generation, raced for it: a layer with
     * runs of zeros and of 0x7 longer than a block is named 1.17.7's generation from its blocks at
     * SpeedBetterCompression and SpeedBestCompression (raced in 1.18.0's place once they show it),
     * a 1.18.0 one keeps 1.18.0's (its runs are RLE blocks). At SpeedFastest and SpeedDefault both
     * write these runs alike, as compressed blocks, and 1.18.0's is named; every layer rebuilt.
     */
    @ParameterizedTest(name = "compress {0}, level {1}")
    @CsvSource({"1.17.7, 1, 11800", "1.17.7, 2, 11800", "1.17.7, 3, 11707", "1.17.7, 4, 11707", "1.18.0, 1, 11800", "1.18.0, 2, 11800",
            "1.18.0, 3, 11800", "1.18.0, 4, 11800"})
    void klauspostLayersWithRunsAreToldByTheirBlocks(String version, int level, int generation) throws Exception {
        byte[] layer = KlauspostZstdOracle.compress(version, level, 1, concat(runsTar(), systemTar));

        SplitResult split = assertRebuilt(layer);

        assertThat(split.identifications()).singleElement()
                .satisfies(id -> assertThat(id.encoder().label()).isEqualTo("klauspost-zstd-" + level + "/" + generation));
    }

    /**
     * A frame of one repeated byte, as zstd:chunked writes for a zero chunk or a file of one byte:
     * its first block is an RLE block from 1.17.8 on at every level, a compressed block in 1.17.7,
     * which names it 1.17.7's generation at SpeedFastest and SpeedDefault too. The layer is the tar
     * with runs in three frames (up to the zeros' content, the zeros, the rest), each identified and
     * all rebuilt.
     */
    @ParameterizedTest(name = "compress {0}, level {1}")
    @CsvSource({"1.17.7, 1, 11707", "1.17.7, 2, 11707", "1.17.7, 3, 11707", "1.17.7, 4, 11707", "1.18.0, 1, 11800", "1.18.0, 2, 11800",
            "1.18.0, 3, 11800", "1.18.0, 4, 11800"})
    void klauspostFramesOfOneByteAreToldByTheirFirstBlock(String version, int level, int generation) throws Exception {
        byte[] tar = runsTar();
        int zerosStart = indexOfZeros(tar, 307200);
        byte[] layer = concat(KlauspostZstdOracle.compress(version, level, 1, Arrays.copyOfRange(tar, 0, zerosStart)),
                KlauspostZstdOracle.compress(version, level, 1, Arrays.copyOfRange(tar, zerosStart, zerosStart + 307200)),
                KlauspostZstdOracle.compress(version, level, 1, Arrays.copyOfRange(tar, zerosStart + 307200, tar.length)));

        SplitResult split = assertRebuilt(layer);

        assertThat(split.identifications()).hasSize(3);
        assertThat(split.identifications().get(1).encoder().label()).isEqualTo("klauspost-zstd-" + level + "/" + generation);
    }

    /** A tar of a file of 300 KiB of zeros and one of 140 KiB of 0x7. */
    private byte[] runsTar() throws Exception {
        Tools.sh(dir, "mkdir -p runs && head -c 307200 /dev/zero > runs/zeros && head -c 143360 /dev/zero | tr '\\0' '\\7' > runs/sevens"
                + " && tar --format=posix -C runs -cf runs.tar ./zeros ./sevens");
        return Files.readAllBytes(dir.resolve("runs.tar"));
    }

    /** Where the first run of {@code length} zero bytes in {@code data} starts. */
    private static int indexOfZeros(byte[] data, int length) {
        int run = 0;
        for (int i = 0; i < data.length; i++) {
            run = data[i] == 0 ? run + 1 : 0;
            if (run == length) {
                return i - length + 1;
            }
        }
        throw new AssertionError("no run of " + length + " zeros");
    }

    /** Under one block the Writer writes a whole frame (EncodeAll: the size recorded, a single segment above 1 KiB, no history). */
    @ParameterizedTest(name = "level {0}, a file of {1} bytes")
    @CsvSource({"2, 1000", "2, 40000", "1, 1000", "1, 40000", "3, 1000", "3, 40000", "4, 1000", "4, 40000"})
    void klauspostLayersUnderOneBlockAreCovered(int level, int fileSize) throws Exception {
        Tools.sh(dir, "mkdir -p small && head -c " + fileSize + " /usr/include/stdio.h > small/f && tar --format=posix -C small -cf small.tar .");
        byte[] tar = Files.readAllBytes(dir.resolve("small.tar"));
        assertThat(tar.length).isLessThan(64 * 1024);
        byte[] layer = KlauspostZstdOracle.compress(level, 1, tar);

        // Both levels write a frame under one block alike where their matches agree; the rebuild proves the one taken
        SplitResult split = assertRebuilt(layer);
        assertThat(split.identifications()).singleElement().satisfies(id -> assertThat(id.encoder().family()).isEqualTo("klauspost-zstd"));
    }

    /** The newest podman (go.podman.io/image 5.42: compress 1.20.3, zstdgen's go.mod), which writes other bytes than 1.18.0: the next candidate. */
    @ParameterizedTest
    @CsvSource({"1, 2", "2, 2", "3, 4", "4, 6"})
    void klauspost1203LayersAreCoveredByTheirOwnGeneration(int level, int candidates) throws Exception {
        byte[] layer = ZstdOracle.klauspost(dir, systemTar, level);

        SplitResult split = assertRebuilt(layer);

        assertThat(split.identifications()).singleElement().satisfies(id -> {
            assertThat(id.encoder().label()).isEqualTo("klauspost-zstd-" + level + "/12003");
            assertThat(id.candidates()).as("candidates run").isEqualTo(candidates);
        });
    }

    /**
     * zstd:chunked (podman, buildah --compression-format zstd:chunked) at zstd levels 1 (SpeedFastest),
     * 3 (podman's default, SpeedDefault), 7 and 10: containers/storage's compressor closes and
     * resets the Writer before and after each file's content (and each chunk its rolling checksum
     * cuts, zero runs included), so the headers between are frames of their own; hard links, empty
     * files, symlinks and directories are headers only. Its last frame holds the tar's last header,
     * written, then the rest copied in with io.Copy, whose ReadFrom first flushes that header's
     * partial block: a flush point, recorded in a version 4 recipe. Up to 1.58 (podman 5.0 to 5.5)
     * the compressor also flushes after the copy, before Close: a second one. Every frame is found
     * by the encoder of the frame before it, the first tried; the table of contents, tar-split and
     * footer are kept verbatim. podman 5.2 pins storage 1.55.0 (compress 1.17.9), 5.4 1.57.1 (1.57.2 here: compress 1.17.11), 5.5
     * 1.58.0, 5.6 1.59.1, 5.7 go.podman.io/storage 1.61.0 (all compress 1.18.0); go.podman.io/storage
     * 1.65.1 (the module's newest) pins compress 1.20.3, many of whose small frames 1.18.0's
     * generation, tried first, writes alike (the rebuild proves each).
     */
    @ParameterizedTest(name = "storage {0}, zstd level {1}")
    @CsvSource({"1.59.1, 1, 1, 11800, 1", "1.59.1, 3, 2, 11800, 1", "1.59.1, 7, 3, 11800, 1", "1.59.1, 10, 4, 11800, 1",
            "1.58.0, 3, 2, 11800, 2", "1.58.0, 7, 3, 11800, 2", "1.57.2, 3, 2, 11800, 2", "1.55.0, 3, 2, 11800, 2", "podman-1.61.0, 3, 2, 11800, 1", "podman-1.65.1, 3, 2, 11800 12003, 1",
            "podman-1.65.1, 1, 1, 11800 12003, 1"})
    void zstdChunkedLayersAreCovered(String storage, int zstdLevel, int encoderLevel, String generations, int lastFrameFlushes) throws Exception {
        byte[] layer = ZstdOracle.zstdChunked(dir, chunkedTar(), zstdLevel, storage);

        SplitResult split = assertRebuilt(layer);

        assertZstdChunked(split, Arrays.stream(generations.split(" ")).map(g -> "klauspost-zstd-" + encoderLevel + "/" + g).toList());
        assertThat(split.identifications()).hasSizeGreaterThan(50);
        assertThat(split.recipe().frames()).filteredOn(f -> f instanceof ZstdFrame.Compressed).last()
                .satisfies(last -> assertThat(((ZstdFrame.Compressed) last).flushPoints()).hasSize(lastFrameFlushes));
    }

    @Property(tries = 4)
    void zstdChunkedLayersOfRandomTarsAreCovered(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int encoderLevel) throws Exception {
        Path work = Files.createTempDirectory("chunked-random-");
        int zstdLevel = new int[] {0, 1, 3, 7, 10}[encoderLevel];
        byte[] layer = ZstdOracle.zstdChunked(work, RandomTars.of(new Random(seed)), zstdLevel);

        assertZstdChunked(assertRebuilt(layer), List.of("klauspost-zstd-" + encoderLevel + "/11800"));
    }

    /**
     * Every frame by one of {@code encoders}, found by the first candidate (the encoder of the frame
     * before) where there is one; only the last compressed frame was flushed, and only zstd:chunked's
     * layers need a version 4 recipe.
     */
    private static void assertZstdChunked(SplitResult split, List<String> encoders) {
        List<Identification> frames = split.identifications();
        assertThat(frames).allSatisfy(id -> assertThat(id.encoder().label()).isIn(encoders));
        assertThat(frames.subList(1, frames.size())).as("found by the encoder of the frame before, or the next generation")
                .allSatisfy(id -> assertThat(id.candidates()).isLessThanOrEqualTo(encoders.size()));
        List<ZstdFrame> recipeFrames = split.recipe().frames();
        assertThat(recipeFrames).filteredOn(f -> f instanceof ZstdFrame.Skippable).hasSize(3);
        List<ZstdFrame> compressed = recipeFrames.stream().filter(f -> f instanceof ZstdFrame.Compressed).toList();
        assertThat(compressed).filteredOn(f -> ((ZstdFrame.Compressed) f).flushPoints().length > 0).containsExactly(compressed.getLast());
        assertThat(split.recipe().toBytes()[4]).as("recipe version").isEqualTo((byte) 4);
    }

    /**
     * What zstd:chunked treats apart: system files from /usr/share, large ones (a binary of several
     * blocks, a file with a long run of zeros), empty files, a hard link, a symlink, directories.
     */
    private byte[] chunkedTar() throws Exception {
        Tools.sh(dir, "mkdir -p c/share c/bin c/empty/sub && find /usr/share/doc /usr/share/perl* -type f 2>/dev/null | sort | sed -n 1,120p"
                + " | xargs cp --parents -t c/share && cp /usr/bin/tar c/bin/ && touch c/empty/a c/empty/sub/b && ln c/bin/tar c/bin/tar-link"
                + " && ln -s ../bin/tar c/empty/tar && { head -c 70000 /usr/bin/tar; head -c 300000 /dev/zero; head -c 5000 /usr/bin/tar; } > c/bin/zeros"
                + " && tar --format=posix -C c -cf chunked.tar .");
        return Files.readAllBytes(dir.resolve("chunked.tar"));
    }

    /**
     * Debian 12's skopeo (compress 1.15.12, before the generations ported) often writes what a ported
     * generation writes (the rebuild then proves it), but not for these documents: at SpeedFastest it
     * differs within the first MiB and is reported with its likely producer.
     */
    @Test
    void klauspostLayersOfReleasesNotPortedAreReportedWithTheirLikelyProducer() throws Exception {
        byte[] layer = KlauspostZstdOracle.compress("1.15.12", KlauspostSettings.SPEED_FASTEST, 1, docTar());

        SplitResult split = assertNotCovered(layer);

        assertThat(split.unmatchedReason()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("zstd stream matches no known encoder").contains("likely producer: klauspost/compress/zstd"));
    }

    /** 600 files of the machine image's documentation ({@link TestInputs#docs}), about 10 MB. */
    private byte[] docTar() throws Exception {
        Path docs = TestInputs.docs();
        Tools.sh(dir, "(cd " + docs.getParent() + " && find doc -type f | sort | sed -n 1,600p) > docs && tar --format=posix -C " + docs.getParent()
                + " -cf doc.tar -T docs");
        return Files.readAllBytes(dir.resolve("doc.tar"));
    }

    /**
     * The machine's zstd CLI: covered if it is libzstd 1.5.7's; any other release writes other bytes
     * (Debian 12's 1.5.4 differs from 1.5.7 within the first block at every level tried), and is then
     * reported, never rebuilt.
     */
    @ParameterizedTest
    @CsvSource({"true, -3", "false, -3", "true, -3 --no-check", "true, -1", "false, -19", "true, -9 --single-thread"})
    void theZstdCliIsCoveredAtLibzstd157AndReportedOtherwise(boolean fromFile, String options) throws Exception {
        byte[] layer = ZstdOracle.cli(dir, systemTar, fromFile, options.split(" "));

        if (ZstdOracle.cliVersion(dir).equals("1.5.7")) {
            assertRebuilt(layer);
        } else {
            SplitResult split = assertNotCovered(layer);
            assertThat(split.unmatchedReason()).hasValueSatisfying(reason -> assertThat(reason).contains("libzstd of another release than 1.5.7"));
        }
    }

    /** Another libzstd release writes other bytes: a build bundling one neither identifies nor rebuilds 1.5.7's frames. */
    @Test
    void aZstdJniBundlingAnotherLibzstdOffersNoCandidateAndRefusesToRebuild() throws Exception {
        byte[] layer = ZstdOracle.libzstd(dir, systemTar, 3, 0, true, true);
        ZstdEncoders other = new ZstdEncoders("1.5.8");

        SplitResult split = new LayerSplitter(StandardEncoders.identifier(), other).split(TestCodec.stream(layer), new MemoryFileStore());
        ZstdFrame.Compressed frame = (ZstdFrame.Compressed) split(layer).recipe().frames().getFirst();

        assertThat(split.recipe().reproducible()).isFalse();
        assertThatThrownBy(() -> other.create(frame.encoder(), frame.contentSize(), new ByteArrayOutputStream()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs libzstd 1.5.7, but zstd-jni bundles 1.5.8");
    }

    @Test
    void aDamagedFrameIsRefused() throws Exception {
        byte[] layer = ZstdOracle.libzstd(dir, systemTar, 3, 0, true, true);
        byte[] truncated = java.util.Arrays.copyOf(layer, layer.length - 100);
        byte[] corrupted = layer.clone();
        corrupted[layer.length / 2] ^= 0x55;

        assertThatThrownBy(() -> split(truncated)).isInstanceOf(LayerFormatException.class).hasMessageContaining("ends inside");
        assertThatThrownBy(() -> split(corrupted)).isInstanceOf(LayerFormatException.class);
    }

    private static SplitResult split(byte[] layer) throws Exception {
        return new LayerSplitter(StandardEncoders.identifier()).split(TestCodec.stream(layer), new MemoryFileStore());
    }

    private static void assertCovered(byte[] layer, String encoder) throws Exception {
        SplitResult split = assertRebuilt(layer);
        assertThat(split.identifications()).extracting(id -> id.encoder().label()).containsOnly(encoder);
    }

    /** Splits, writes and reads the recipe back, rebuilds and compares byte for byte. */
    private static SplitResult assertRebuilt(byte[] layer) throws Exception {
        MemoryFileStore store = new MemoryFileStore();
        SplitResult split = new LayerSplitter(StandardEncoders.identifier()).split(TestCodec.stream(layer), store);
        assertThat(split.recipe().format()).isEqualTo(LayerFormat.ZSTD);
        assertThat(split.unmatchedReason()).isEmpty();
        Recipe recipe = Recipe.read(TestCodec.stream(split.recipe().toBytes()));
        assertThat(recipe).isEqualTo(split.recipe());
        ByteArrayOutputStream rebuilt = new ByteArrayOutputStream();
        new LayerRebuilder(StandardEncoders.factory()).rebuild(recipe, store, rebuilt);
        assertThat(rebuilt.toByteArray()).isEqualTo(layer);
        return split;
    }

    private static SplitResult assertNotCovered(byte[] layer) throws Exception {
        return TestCodec.assertSplitButNotRebuildable(layer);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
