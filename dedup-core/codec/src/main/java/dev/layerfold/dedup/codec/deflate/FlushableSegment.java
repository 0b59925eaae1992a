package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;

/**
 * A segment of a Go {@code compress/flate} stream (any release), whose producer may have flushed the
 * stream right before closing it ({@link FlushBeforeFinish}: eStargz's members). The flush comes after
 * all input, so every block boundary before it is the unflushed stream's; only the last segment
 * ends differently, with {@link #flush} before its {@code finish}.
 */
public interface FlushableSegment {

    /** Go's {@code Writer.Flush}: emits everything buffered, then an empty stored block that byte-aligns the output. */
    void flush() throws IOException;
}
