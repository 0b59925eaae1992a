package dev.layerfold.dedup.codec.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Passes bytes through and counts them: how much of a blob, or of a segment, was written. */
public final class CountingOutput extends FilterOutputStream {

    private long count;

    public CountingOutput(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        count++;
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        out.write(data, offset, length);
        count += length;
    }

    /** Bytes passed through since the start. */
    public long count() {
        return count;
    }
}
