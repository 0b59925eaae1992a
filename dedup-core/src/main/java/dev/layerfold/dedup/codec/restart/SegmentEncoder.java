package dev.layerfold.dedup.codec.restart;

import java.io.IOException;

/**
 * Encodes one segment of a gzip member: from a restart point (or the member's start) to the next
 * point (or the member's end), writing the segment's bytes as defined by
 * {@link dev.layerfold.dedup.codec.recipe.RestartPoint}. Not thread-safe.
 */
public interface SegmentEncoder {

    void write(byte[] data, int offset, int length) throws IOException;

    /** The input reached the next restart point: writes the rest of this segment's bytes. */
    void endAtRestartPoint() throws IOException;

    /** The input reached the member's end: writes the final block. */
    void finish() throws IOException;
}
