package dev.layerfold.dedup.codec.restart;

import java.io.IOException;
import java.util.List;

/**
 * Encodes one segment of a gzip member: from a restart point (or the member's start) to the block
 * boundary it was asked to end at (or the member's end), writing the segment's bytes as defined by
 * {@link dev.layerfold.dedup.codec.recipe.RestartPoint}. Some families decide where the boundary
 * lies (Go's, zlib's and GNU gzip's blocks end after a count of symbols) and read input past it before they know: the
 * caller gives input until {@link #reachedEnd()} or up to {@link RestartSupport#lookahead}
 * bytes past the boundary. Not thread-safe.
 */
public interface SegmentEncoder {

    /**
     * Where a segment ended and the next starts: the next restart point, without its digest.
     *
     * @param state the family's state values there (see {@link dev.layerfold.dedup.codec.recipe.RestartPoint#state()})
     */
    record Boundary(long inputOffset, long outputBitOffset, List<Integer> state) {
    }

    /**
     * For the proof, before any input: the segment ends only at a boundary where a state rebuilt
     * from the point's values and the input before it goes on exactly as this encoder does, so that
     * a point that would not hold is never recorded. Families whose rebuilt state is exact by
     * construction need no check.
     */
    default void verifyRestartPoints() {
    }

    /**
     * Takes input; returns how much it took: all of it, unless the segment reached its end (the
     * rest, including input it looked ahead at, belongs to the next segment).
     */
    int write(byte[] data, int offset, int length) throws IOException;

    /** Whether the segment reached the boundary it ends at: {@link #endAtRestartPoint} is due. */
    boolean reachedEnd();

    /**
     * Writes the rest of this segment's bytes and returns where it ended.
     *
     * @throws dev.layerfold.dedup.codec.io.LayerRebuildException if the input given does not reach the boundary
     */
    Boundary endAtRestartPoint() throws IOException;

    /** The input reached the member's end: writes the final block. */
    void finish() throws IOException;
}
