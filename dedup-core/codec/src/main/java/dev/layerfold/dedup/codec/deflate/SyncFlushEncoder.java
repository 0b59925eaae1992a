package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;

/**
 * A {@link DeflateEncoder} whose original also has a sync flush (zlib's {@code Z_SYNC_FLUSH}, Go's
 * {@code Writer.Flush}): producers that frame blocks with flushes, such as pgzip, and the tests
 * that compare flushed streams use it.
 */
public interface SyncFlushEncoder extends DeflateEncoder {

    /** Emits everything buffered, then an empty stored block that byte-aligns the output. */
    void flush() throws IOException;
}
