package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.io.CountingOutput;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * A segment of a family whose blocks start afresh (pigz, pgzip, zlib's stored level): it ends where
 * the caller says, on a byte boundary, and takes input up to the end, no further.
 */
public abstract class BlockAlignedSegment implements SegmentEncoder {
    private final long startBit;
    private final long end;
    private final CountingOutput out;
    private long input;

    protected BlockAlignedSegment(RestartPoint point, long end, CountingOutput out) {
        this.input = point.inputOffset();
        this.startBit = point.outputBitOffset();
        this.end = end;
        this.out = out;
    }

    /**
     * Checks that a point and a segment end fit a family of {@code block}-byte blocks: both on a block
     * boundary, the point on a byte boundary and, unless {@code stateValues}, without state values.
     * Returns the output to give the segment, which counts what it writes.
     */
    public static CountingOutput requireBlockAligned(String family, int block, boolean stateValues, RestartPoint point, long end, OutputStream out) {
        if (!stateValues && !point.state().isEmpty() || point.outputBitOffset() % 8 != 0) {
            throw new IllegalArgumentException("a " + family + " restart point lies on a byte boundary and has no state values");
        }
        if (point.inputOffset() % block != 0 || end != Long.MAX_VALUE && end % block != 0) {
            throw new IllegalArgumentException("a " + family + " restart point lies on a block boundary (" + block + " bytes), not at "
                    + point.inputOffset() + " or " + end);
        }
        return new CountingOutput(out);
    }

    protected abstract void encode(byte[] data, int offset, int length) throws IOException;

    /** Ends the block under way; returns the state values of the point its end is. */
    protected abstract List<Integer> endBlock() throws IOException;

    @Override
    public int write(byte[] data, int offset, int length) throws IOException {
        int n = (int) Math.min(length, end - input);
        encode(data, offset, n);
        input += n;
        return n;
    }

    @Override
    public boolean reachedEnd() {
        return input == end;
    }

    @Override
    public Boundary endAtRestartPoint() throws IOException {
        if (input != end) {
            throw new LayerRebuildException("the segment ends at input offset " + end + " but its input stopped at " + input);
        }
        List<Integer> state = endBlock();
        return new Boundary(end, startBit + 8 * out.count(), state);
    }
}
