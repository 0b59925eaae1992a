package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Layers written by libzstd 1.5.7 with worker threads (the zstd CLI's default) get verified restart
 * points at job boundaries in the dedup split's proof; a parallel restore, and a restore from each
 * point, give the original's bytes; damaged points are caught, never served. The layers come from
 * libzstd's own build ({@link ZstdOracle}), with the size pledged or not, a checksum or none.
 */
class LibzstdRestartPointTest {

    @TempDir
    static Path dir;

    /** Jobs of 2 MiB at level 1, 8 MiB at 3, 16 MiB at 9: tars of a few jobs each. */
    @ParameterizedTest(name = "level {0}, size pledged {2}, checksum {3}")
    @CsvSource({"1, 9, true, false", "3, 17, false, true", "9, 34, true, true"})
    void systemFilesLayersRestoreInParallelAndFromEveryPoint(int level, int megabytes, boolean pledged, boolean checksum) throws Exception {
        ZstdRestartPointTest.assertRestartsExact(ZstdOracle.libzstd(dir, TestInputs.tarOf(Path.of("/usr/share"), megabytes << 20), level, 1, pledged,
                checksum), 3);
    }

    @Test
    void binariesLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        ZstdRestartPointTest.assertRestartsExact(ZstdOracle.libzstd(dir, TestInputs.tarOf(Path.of("/usr/lib"), 9 << 20), 1, 1, false, true), 3);
    }

    /**
     * Level 19: jobs of 32 MiB, each reloading 8 MiB of overlap, which a restore compresses with the least search. Its files
     * come back every 3 MiB, which keeps level 19 to seconds.
     */
    @Test
    void level19LayersRestoreInParallelAndFromThePointAfterTheFirstJob() throws Exception {
        byte[] files = TestInputs.tarOf(Path.of("/usr/share"), 3 << 20);
        TarBlocks tar = new TarBlocks();
        for (int copy = 0; copy < 12; copy++) {
            for (int at = 0; at < files.length; at += 64 << 10) {
                byte[] body = Arrays.copyOfRange(files, at, Math.min(files.length, at + (64 << 10)));
                tar.header("copy" + copy + "/file" + at, '0', body.length, false).data(body, (byte) 0);
            }
        }
        ZstdRestartPointTest.assertRestartsExact(ZstdOracle.libzstd(dir, tar.raw(new byte[1024]).bytes(), 19, 1, true, true), 2);
    }

    /** Ended after its input, as the CLI reading a pipe ends it, on whole jobs: the last one is then an empty block. */
    @Test
    void randomTarsOfWholeJobsEndedAfterTheirInputRestoreInParallelAndFromEveryPoint() throws Exception {
        byte[] tar = RestartPointPropertyTest.mixedTar(new Random(14), 17 << 20);
        ZstdRestartPointTest.assertRestartsExact(ZstdOracle.libzstd(dir, Arrays.copyOf(tar, 8 << 20), 1, 1, false, true, true), 3);
        ZstdRestartPointTest.assertRestartsExact(ZstdOracle.libzstd(dir, tar, 3, 1, true, false), 3);
    }

    @Test
    void aPointInsideAJobIsCaught() throws Exception {
        ZstdRestartPointTest.assertDamageCaught(damageLayer(),
                p -> new ZstdRestartPoint(p.inputOffset() + (128 << 10), p.outputOffset(), p.patch(), p.segmentSha256()));
    }

    @Test
    void aWrongOutputOffsetIsCaught() throws Exception {
        ZstdRestartPointTest.assertDamageCaught(damageLayer(),
                p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset() + 1, p.patch(), p.segmentSha256()));
    }

    @Test
    void aPatchOnALibzstdPointIsCaught() throws Exception {
        ZstdRestartPointTest.assertDamageCaught(damageLayer(),
                p -> new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), new byte[] {0, 0, 0}, p.segmentSha256()));
    }

    @Test
    void aWrongSegmentDigestIsCaught() throws Exception {
        ZstdRestartPointTest.assertDamageCaught(damageLayer(), p -> {
            byte[] sha = p.segmentSha256();
            sha[0] ^= 1;
            return new ZstdRestartPoint(p.inputOffset(), p.outputOffset(), p.patch(), sha);
        });
    }

    private static ZstdRestartPointTest.Proven damageLayer;

    private static ZstdRestartPointTest.Proven damageLayer() throws Exception {
        if (damageLayer == null) {
            damageLayer = ZstdRestartPointTest.proven(ZstdOracle.libzstd(dir, TestInputs.tarOf(Path.of("/usr/share"), 7 << 20), 1, 1, true, true));
            assertThat(((ZstdFrame.Compressed) damageLayer.recipe().frames().getFirst()).encoder().toString()).isEqualTo("libzstd1.5.7-1/1/1/1/0");
        }
        return damageLayer;
    }
}
