package dev.layerfold.dedup.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A file body already on the heap (a slice of an array), which {@link LayerRebuilder} hands to the
 * encoder in place, in the pieces it would otherwise copy it through its own buffer in: a restore's
 * files come decompressed into arrays, and a second copy of every tar byte cost about a tenth of
 * what a restore adds to the encoder's own work.
 */
public final class HeapFileBody extends ByteArrayInputStream {

    public HeapFileBody(byte[] content, int offset, int length) {
        super(content, offset, length);
    }

    public HeapFileBody(byte[] content) {
        super(content);
    }

    /** Writes what is left of the body to {@code out} in pieces of at most {@code piece} bytes, and ends it. */
    synchronized void writeTo(OutputStream out, int piece) throws IOException {
        while (pos < count) {
            int n = Math.min(piece, count - pos);
            out.write(buf, pos, n);
            pos += n;
        }
    }
}
