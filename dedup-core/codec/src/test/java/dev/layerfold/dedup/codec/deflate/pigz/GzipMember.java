package dev.layerfold.dedup.codec.deflate.pigz;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;

/**
 * Reads one gzip member (RFC 1952) around a raw deflate stream: checks and skips the header, hands
 * out the deflate bytes and holds back the 8-byte trailer, which never reaches the caller.
 */
final class GzipMember extends InputStream {

    private static final int FTEXT_HCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    private final PushbackInputStream in;
    private final byte[] trailer = new byte[8];

    /** Reads and checks the header; what follows is the deflate stream. */
    GzipMember(InputStream gzip) throws IOException {
        this.in = new PushbackInputStream(gzip, 8);
        if (readByte() != 0x1f || readByte() != 0x8b) {
            throw new IOException("not gzip: bad magic");
        }
        if (readByte() != 8) {
            throw new IOException("gzip method is not deflate");
        }
        int flags = readByte();
        in.skipNBytes(6); // MTIME, XFL, OS
        if ((flags & FEXTRA) != 0) {
            int length = readByte() | readByte() << 8;
            in.skipNBytes(length);
        }
        if ((flags & FNAME) != 0) {
            skipZeroTerminated();
        }
        if ((flags & FCOMMENT) != 0) {
            skipZeroTerminated();
        }
        if ((flags & FTEXT_HCRC) != 0) {
            in.skipNBytes(2);
        }
        if (in.readNBytes(trailer, 0, 8) != 8) {
            throw new IOException("gzip member too short for its trailer");
        }
    }

    /** Deflate bytes: everything but the last 8 bytes of the member. */
    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, len);
        if (n <= 0) {
            return -1;
        }
        // The last 8 bytes seen are the trailer candidate; give out what precedes them.
        byte[] window = new byte[8 + n];
        System.arraycopy(trailer, 0, window, 0, 8);
        System.arraycopy(b, off, window, 8, n);
        System.arraycopy(window, 0, b, off, n);
        System.arraycopy(window, n, trailer, 0, 8);
        return n;
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("gzip header truncated");
        }
        return b;
    }

    private void skipZeroTerminated() throws IOException {
        while (readByte() != 0) {
            // skip
        }
    }
}
