package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.LayerFormat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.recipe.Skeleton;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** What a rebuild reserves: its buffers and encoder alone, plus its segments under way when it has restart points and a pool. */
class RebuildFootprintTest {

    private static final long MIB = 1 << 20;
    private static final EncoderSpec GO_6 = EncoderSpec.of(StandardEncoders.GO, 6);
    private static final long TAR = 100 * MIB;

    @Test
    void aLayerWithoutPointsReservesItsBuffersAndOneEncoder() {
        LayerRebuilder parallel = new LayerRebuilder(StandardEncoders.factory(), new SegmentPool(Executors.newSingleThreadExecutor(), 2));

        long bound = parallel.heapBound(gzipLayer(List.of()));

        assertThat(bound).isEqualTo(RebuildFootprint.BUFFERS + RebuildFootprint.DEFLATE_ENCODER);
    }

    @Test
    void aLayerWithPointsReservesEverySegmentOneRestoreHasUnderWaySizedByItsWidestGap() {
        SegmentPool pool = new SegmentPool(Executors.newSingleThreadExecutor(), 2);
        LayerRebuilder parallel = new LayerRebuilder(StandardEncoders.factory(), pool);
        Recipe evenly = gzipLayer(points(4 * MIB));
        Recipe wider = gzipLayer(points(16 * MIB));

        long even = parallel.heapBound(evenly);
        long wide = parallel.heapBound(wider);

        // threads + 1 segments, each its input (plus history and look-ahead) and up to twice that as output, and an encoder.
        long perSegment = (even - RebuildFootprint.BUFFERS - RebuildFootprint.DEFLATE_ENCODER) / pool.perRestore();
        assertThat(perSegment).isBetween(3 * 4 * MIB, 3 * 4 * MIB + RebuildFootprint.DEFLATE_ENCODER + 3 * MIB);
        assertThat(wide - even).as("segments 4x as long hold 4x as much").isGreaterThanOrEqualTo(pool.perRestore() * 3 * 12 * MIB);
        assertThat(new LayerRebuilder(StandardEncoders.factory()).heapBound(evenly))
                .as("without a pool the same layer is encoded in one piece").isEqualTo(RebuildFootprint.BUFFERS + RebuildFootprint.DEFLATE_ENCODER);
    }

    private static List<RestartPoint> points(long spacing) {
        List<RestartPoint> points = new ArrayList<>();
        for (long at = 0; at < TAR; at += spacing) {
            points.add(new RestartPoint(at, at * 3, List.of(), new byte[32]));
        }
        return points;
    }

    private static Recipe gzipLayer(List<RestartPoint> points) {
        GzipMember member = new GzipMember(new byte[10], GO_6, TAR, new byte[8], points);
        return new Recipe("0".repeat(64), TAR / 3, LayerFormat.GZIP, List.of(member), new byte[0], new Skeleton(new byte[0], TAR, 0, 0));
    }
}
