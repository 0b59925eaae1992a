package dev.layerfold.dedup.codec.restart;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Writes segments one after another into a member's deflate stream. A segment that starts inside a
 * byte (Go's, zlib's and GNU gzip's blocks are not byte aligned) shares that byte with the one before: each wrote it with
 * the other's bits zero, so it goes out as the OR of both. The last byte written is therefore held
 * until the next segment shows whether it shares it. A resumed rebuild starts at its first whole
 * byte: a shared first byte with nothing before it is dropped. Also gives each segment's sha256 over
 * its own bytes (a shared byte with only its own bits), as its restart point records it.
 */
final class SegmentJoiner extends OutputStream {

    private final OutputStream out;
    private final MessageDigest sha256;
    private int held = -1;
    private boolean sharesFirst;

    SegmentJoiner(OutputStream out) {
        this.out = out;
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** A segment starts at bit {@code bit} of the member's deflate stream. */
    void beginSegment(long bit) throws IOException {
        sharesFirst = bit % 8 != 0;
        if (!sharesFirst) {
            release();
        }
    }

    /** The sha256 of the segment's own bytes since {@link #beginSegment}. */
    byte[] endSegment() {
        return sha256.digest();
    }

    /** Writes the byte still held: the member's deflate stream is complete. */
    void endStream() throws IOException {
        release();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (length == 0) {
            return;
        }
        sha256.update(data, offset, length);
        if (sharesFirst) {
            sharesFirst = false;
            if (held >= 0) {
                held |= data[offset] & 0xff;
            }
            offset++;
            length--;
            if (length == 0) {
                return;
            }
        }
        release();
        out.write(data, offset, length - 1);
        held = data[offset + length - 1] & 0xff;
    }

    private void release() throws IOException {
        if (held >= 0) {
            out.write(held);
            held = -1;
        }
    }
}
