package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.recipe.UnitPoint;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.ParallelFrame;
import dev.layerfold.dedup.codec.restart.ParallelMember;
import dev.layerfold.dedup.codec.identify.RestartableEncoders;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import java.util.List;

/**
 * The most heap one rebuild of a recipe holds at once, besides the file bodies handed to it: what a
 * caller reserves before it starts ({@code RebuildMemory}). Three parts:
 * <ul>
 *   <li>buffers: the tar copy buffer and the blob's output buffer;</li>
 *   <li>one encoder's state, the largest its family and level keep (a member or frame is encoded at a time);</li>
 *   <li>with a segment pool, the segments one rebuild has under way at once: each holds its history,
 *       its input, the look-ahead its encoder reads, the bytes it encoded (a growing array, so up to
 *       twice them while it grows) and an encoder of its own. Their sizes come from the recipe's own
 *       points, so a layer whose points lie far apart reserves for that.</li>
 * </ul>
 * The bounds are upper bounds of what the restore-memory benchmark measures (docs/benchmarks.md).
 */
final class RebuildFootprint {

    /** The tar copy buffer, the blob's output buffer and the verifying hash's: see {@link LayerRebuilder}. */
    static final long BUFFERS = 4 * 64 * 1024;
    /**
     * A DEFLATE encoder's state at most: Go's compressor (hash head and chain, a doubled window, tokens),
     * Go 1.27's level encoders, zlib's and GNU gzip's deflate_state; all under 1.5 MiB.
     */
    static final long DEFLATE_ENCODER = 2L << 20;
    /** libzstd's context lives off the heap (native memory): on the heap only the buffers zstd-jni is handed. */
    static final long LIBZSTD_ENCODER = 2L << 20;
    /** How far past a zstd segment's end its encoder may read: one block. */
    private static final long ZSTD_LOOKAHEAD = 128 * 1024;
    /** A segment's encoded bytes grow in an array that may, while it doubles, hold twice its input. */
    private static final long OUTPUT_FACTOR = 2;

    private RebuildFootprint() {
    }

    /**
     * @param recipe            the layer's recipe
     * @param segmentsInFlight  how many segments one rebuild may have under way at once; 0 without a segment pool
     */
    static long heapBound(Recipe recipe, int segmentsInFlight) {
        long encoder = largestEncoder(recipe);
        long bound = BUFFERS + encoder;
        if (segmentsInFlight > 0) {
            long segment = largestSegmentInput(recipe);
            if (segment > 0) {
                bound += segmentsInFlight * (segment * (1 + OUTPUT_FACTOR) + encoder);
            }
        }
        return bound;
    }

    /**
     * The proof's bound: the dedup worker encodes on its own thread, one piece after another, each
     * from a rebuilt state beside the stream's own encoder.
     */
    static long proofBound(Recipe recipe) {
        long encoder = largestEncoder(recipe);
        return BUFFERS + 2 * encoder + RestartableEncoders.SPACING * (1 + OUTPUT_FACTOR) + largestUnit(recipe) * (1 + OUTPUT_FACTOR);
    }

    /**
     * The largest state one of the recipe's encoders keeps: a DEFLATE encoder's, or the klauspost
     * zstd port's at the frame's level (its tables and window: 11 MiB at SpeedFastest, 55 MiB at
     * SpeedBestCompression), or libzstd's heap side.
     */
    private static long largestEncoder(Recipe recipe) {
        long largest = recipe.members().isEmpty() ? 0 : DEFLATE_ENCODER;
        for (ZstdFrame frame : recipe.frames()) {
            if (frame instanceof ZstdFrame.Compressed compressed) {
                EncoderSpec spec = compressed.encoder();
                largest = Math.max(largest, spec.family().equals(KlauspostSettings.FAMILY) ? KlauspostSettings.of(spec).heapBound()
                        : LIBZSTD_ENCODER);
            }
        }
        return Math.max(largest, DEFLATE_ENCODER);
    }

    /** The largest input (history, own input, look-ahead) a segment or unit of the recipe holds; 0 if it has none. */
    private static long largestSegmentInput(Recipe recipe) {
        if (!recipe.units().isEmpty()) {
            return largestUnit(recipe);
        }
        long largest = 0;
        for (GzipMember member : recipe.members()) {
            List<RestartPoint> points = member.restartPoints();
            long lookahead = RestartableEncoders.lookahead(member.encoder());
            for (int i = 0; i < points.size(); i++) {
                long end = i + 1 < points.size() ? points.get(i + 1).inputOffset() + lookahead : member.uncompressedSize();
                largest = Math.max(largest, Math.min(end, member.uncompressedSize()) - ParallelMember.inputStart(RestartableEncoders.STANDARD, member.encoder(), points.get(i)));
            }
        }
        for (ZstdFrame frame : recipe.frames()) {
            if (frame instanceof ZstdFrame.Compressed compressed && !compressed.restartPoints().isEmpty()) {
                List<ZstdRestartPoint> points = compressed.restartPoints();
                for (int i = 0; i < points.size(); i++) {
                    long end = i + 1 < points.size() ? points.get(i + 1).inputOffset() + ZSTD_LOOKAHEAD : compressed.contentSize();
                    long start;
                    try {
                        start = ParallelFrame.inputStart(compressed, points.get(i));
                    } catch (IllegalArgumentException damaged) {
                        start = 0; // a damaged point: the whole frame, as the restore's fallback holds
                    }
                    largest = Math.max(largest, Math.min(end, compressed.contentSize()) - start);
                }
            }
        }
        return largest;
    }

    /** The largest unit's tar; 0 without units. */
    private static long largestUnit(Recipe recipe) {
        List<UnitPoint> units = recipe.units();
        if (units.isEmpty()) {
            return 0;
        }
        List<Long> sizes = FrameUnits.pieceSizes(recipe);
        long largest = 0;
        for (int i = 0; i < units.size(); i++) {
            int end = i + 1 < units.size() ? units.get(i + 1).first() : sizes.size();
            largest = Math.max(largest, sizes.subList(units.get(i).first(), end).stream().mapToLong(Long::longValue).sum());
        }
        return largest;
    }
}
