package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import dev.layerfold.dedup.codec.recipe.Varints;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdOracle;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;

import static dev.layerfold.dedup.codec.ZstdRestartPointTest.assertDamageCaught;
import static dev.layerfold.dedup.codec.ZstdRestartPointTest.assertDamageNeverServed;
import static dev.layerfold.dedup.codec.ZstdRestartPointTest.assertRestartsExact;

/**
 * Layers written by the Go Writer of klauspost/compress/zstd at SpeedBestCompression (containers/image's zstd levels 10
 * and up) get verified restart points whose segments start from tables replayed from the Writer's indexing; a parallel
 * restore, and a restore from each point, give the original's bytes; damaged index records are caught, never served.
 * Its points lie twice as far apart as others' (4 MiB here), so the layers are larger.
 */
class ZstdBestRestartPointTest {

    @Test
    void systemFilesLayersRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BEST, 1, TestInputs.tarOf(Path.of("/usr/lib"), 9 << 20)), 3);
    }

    @Test
    void randomTarsRestoreInParallelAndFromEveryPoint() throws Exception {
        assertRestartsExact(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BEST, 1, RestartPointPropertyTest.mixedTar(new Random(10), 5 << 20)), 2);
    }

    private static ZstdRestartPointTest.Proven damageLayer;

    private static ZstdRestartPointTest.Proven damageLayer() throws Exception {
        if (damageLayer == null) {
            damageLayer = ZstdRestartPointTest.proven(KlauspostZstdOracle.compress(KlauspostSettings.SPEED_BEST, 1,
                    TestInputs.tarOf(Path.of("/usr/share"), 9 << 20)));
        }
        return damageLayer;
    }

    /** An entropy state that is not one, or none, or no items, is caught. */
    @Test
    void aRecordWithoutTheWritersStateIsCaught() throws Exception {
        assertDamageCaught(damageLayer(), p -> withPatch(p, new byte[] {3, 1, 2, 3, 0}));
        assertDamageCaught(damageLayer(), p -> withPatch(p, new byte[] {0, 0}));
        assertDamageCaught(damageLayer(), p -> withPatch(p, new byte[0]));
    }

    /**
     * A skip moved (an item starting a position later, or a byte of the items flipped) gives other tables, and so other
     * bytes, which the segment's digest catches, or tables that decide nothing otherwise: never other bytes served.
     */
    @Test
    void aMovedSkipIsCaughtOrHarmless() throws Exception {
        for (int item = 0; item < 3; item++) {
            int moved = item;
            assertDamageNeverServed(damageLayer(), p -> withPatch(p, itemMoved(p.patch(), moved)));
        }
        for (int at : new int[] {1000, 1100, 1200}) {
            assertDamageNeverServed(damageLayer(), p -> {
                byte[] patch = p.patch();
                patch[Math.min(at, patch.length - 1)] ^= 1;
                return withPatch(p, patch);
            });
        }
    }

    @Test
    void aWrongInputOffsetIsCaught() throws Exception {
        assertDamageCaught(damageLayer(), p -> new ZstdRestartPoint(p.inputOffset() + (128 << 10), p.outputOffset(), p.patch(), p.segmentSha256()));
    }

    private static ZstdRestartPoint withPatch(ZstdRestartPoint point, byte[] patch) {
        return new ZstdRestartPoint(point.inputOffset(), point.outputOffset(), patch, point.segmentSha256());
    }

    /** The record with its item {@code item} starting a position later, its end kept. */
    private static byte[] itemMoved(byte[] record, int item) {
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(record);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int stateLength = (int) Varints.read(in);
            Varints.write(out, stateLength);
            out.write(in.readNBytes(stateLength));
            long items = Varints.read(in);
            Varints.write(out, items);
            for (int i = 0; i < items; i++) {
                long gapAndKind = Varints.read(in);
                long length = Varints.read(in);
                boolean moved = i == item && length > 1;
                Varints.write(out, moved ? gapAndKind + 2 : gapAndKind);
                Varints.write(out, moved ? length - 1 : length);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
