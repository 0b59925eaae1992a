package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * One segment of a DEFLATE stream, encoded from the start or from a state rebuilt at a block
 * boundary, up to the first block boundary at or past a given input offset, where it records the
 * encoder's state in a few values: the families whose restart points carry state values (Go
 * 1.8-1.26 levels 2-9, Go 1.27 levels 7-9, zlib and GNU gzip). The restart points' code drives
 * them all through this one seam.
 */
public interface BoundarySegment {

    /** The encoder's state at a block boundary: where it lies in the input, and the values a restart point records. */
    interface State {

        long input();

        List<Integer> values();
    }

    /** The segment ends with the first block that ends at input offset {@code offset} or later. */
    void endAtBlockFrom(long offset);

    /**
     * For the proof, before any input: the segment ends only at a boundary where a segment resumed there
     * goes on exactly as this one; {@code history[offset..offset+length)} is the input before its start.
     * Only families whose resume rebuilds the state by a warm-up that may not hold check; by default all hold.
     */
    default void verifyBoundaries(byte[] history, int offset, int length) {
    }

    /** Takes input; returns how much (less than given once the segment stopped). */
    int write(byte[] data, int offset, int length) throws IOException;

    /** Where the segment ended (the next segment's start), once its end block was written. */
    Optional<? extends State> stopped();

    /**
     * Where the segment ends: {@link #stopped}, after stepping over input already taken for an
     * encoder that steps only when its window is full; empty if the input given does not reach it.
     */
    default Optional<? extends State> boundary() throws IOException {
        return stopped();
    }

    /** The bit of the stream the segment reached. */
    long bitPosition() throws IOException;

    /** Writes the segment's last bytes, the partial last one padded with zero bits; for a segment that stopped. */
    void endSegment() throws IOException;

    /** The input ended: writes the stream's last blocks. */
    void finish() throws IOException;
}
