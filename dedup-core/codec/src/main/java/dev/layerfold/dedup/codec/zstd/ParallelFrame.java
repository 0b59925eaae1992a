package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.restart.ParallelMember;
import dev.layerfold.dedup.codec.restart.ParallelSegments;
import dev.layerfold.dedup.codec.restart.SegmentPool;
import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;
import dev.layerfold.dedup.codec.zstd.klauspost.XxHash64;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes a zstd frame with restart points on a {@link SegmentPool} ({@link ParallelSegments}): each
 * segment by its encoder's kind of restart ({@link FrameSegments}), checked against the digest its
 * point records before it goes out. Zstd blocks end on bytes, so the segments are simply
 * concatenated. The frame's checksum (XXH64 of all of the content, which cannot be combined from
 * parts) is computed on the restore's thread as the input goes by and checked against the one the
 * recipe records; a restore from a later point writes the recorded one, each segment having been
 * checked. Not thread-safe (one restore's thread drives it).
 */
public final class ParallelFrame extends ParallelSegments<byte[]> implements ZstdEncoder {

    private final ZstdFrame.Compressed frame;
    private final List<ZstdRestartPoint> points;
    private final FrameSegments segments;
    private final long[] inputStarts;
    private final OutputStream out;
    /** Null unless the whole frame is restored and has a checksum. */
    private final XxHash64 checksum;

    private ParallelFrame(ZstdFrame.Compressed frame, FrameSegments segments, long[] inputStarts, int first, SegmentPool pool, OutputStream out) {
        super(frame.restartPoints().stream().mapToLong(ZstdRestartPoint::inputOffset).toArray(), frame.contentSize(), first, inputStarts[first],
                pool, 0, "zstd frame");
        this.frame = frame;
        this.points = frame.restartPoints();
        this.segments = segments;
        this.inputStarts = inputStarts;
        this.out = out;
        this.checksum = first == 0 && frame.checksum().length == 4 ? new XxHash64() : null;
    }

    /**
     * The frame's encoder from restart point {@code first} (0: the frame's start); the input written
     * must start at {@link #inputStart} of that point, the history its segment's encoder reads.
     *
     * @throws LayerRebuildException if the frame's encoder or points are not ones a restore can take (a damaged recipe)
     */
    public static ParallelFrame open(ZstdFrame.Compressed frame, int first, SegmentPool pool, OutputStream out) throws LayerRebuildException {
        if (first < 0 || first >= frame.restartPoints().size()) {
            throw new IllegalArgumentException("this zstd frame has no restart point " + first);
        }
        try {
            FrameSegments segments = FrameSegments.of(frame);
            long[] starts = new long[frame.restartPoints().size()];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = segments.inputStart(frame.restartPoints().get(i));
            }
            return new ParallelFrame(frame, segments, starts, first, pool, out);
        } catch (IllegalArgumentException e) {
            throw new LayerRebuildException("the zstd frame's restart points cannot be restored from: " + e.getMessage(), e);
        }
    }

    /** Where in the frame's content the bytes written must start to resume at {@code point}. */
    public static long inputStart(ZstdFrame.Compressed frame, ZstdRestartPoint point) {
        return FrameSegments.of(frame).inputStart(point);
    }

    @Override
    protected long inputStart(int index) {
        return inputStarts[index];
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (checksum != null) {
            checksum.update(data, offset, length);
        }
        super.write(data, offset, length);
    }

    @Override
    public void drain() {
        // segments go out as soon as they and those before them are done
    }

    @Override
    public void finish() throws IOException {
        finishSegments();
        byte[] recorded = frame.checksum();
        if (checksum != null) {
            byte[] computed = checksum.frameChecksum();
            if (!Arrays.equals(computed, recorded)) {
                throw new LayerRebuildException("the zstd frame's content has checksum " + Arrays.toString(computed) + ", its recipe records "
                        + Arrays.toString(recorded));
            }
        }
        out.write(recorded);
    }

    @Override
    public void close() {
        abort();
    }

    @Override
    protected void emit(int index, byte[] encoded) throws IOException {
        out.write(encoded);
    }

    @Override
    protected byte[] encode(Segment segment) throws IOException {
        int index = segment.index();
        ZstdRestartPoint point = points.get(index);
        long outputEnd = segment.last() ? -1 : points.get(index + 1).outputOffset();
        byte[] encoded = segments.encode(point, segment);
        if (!segment.last() && encoded.length != outputEnd - point.outputOffset()) {
            throw new LayerRebuildException("zstd segment " + index + " encoded to " + encoded.length + " bytes, its restart points say "
                    + (outputEnd - point.outputOffset()) + ": the recipe is damaged");
        }
        ParallelMember.checkDigest(encoded, point.segmentSha256(), index, point.inputOffset());
        return encoded;
    }
}
