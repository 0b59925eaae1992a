package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Assertions;

/**
 * A sink that compares everything written to it with a reference stream as it arrives, so two
 * encoders' outputs of 100 MB inputs are compared without holding either.
 */
public final class StreamComparison extends OutputStream {

    private final InputStream reference;
    private final String what;
    private long position;
    private byte[] buffer = new byte[64 * 1024];

    public StreamComparison(InputStream reference, String what) {
        this.reference = reference;
        this.what = what;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (buffer.length < length) {
            buffer = new byte[length];
        }
        int got = reference.readNBytes(buffer, 0, length);
        int at = Arrays.mismatch(buffer, 0, got, data, offset, offset + length);
        if (at >= 0) {
            Assertions.fail(what + ": streams differ at byte " + (position + at)
                    + (at == got ? " (the reference ended there)" : ""));
        }
        position += length;
    }

    /** Asserts the reference has nothing more than what was written. */
    public void assertReferenceEnded() throws IOException {
        if (reference.read() != -1) {
            Assertions.fail(what + ": the reference continues after the " + position + " bytes written");
        }
    }

    public long position() {
        return position;
    }
}
