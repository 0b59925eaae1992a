package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * zlib's {@code pending_buf} together with its bit buffer ({@code bi_buf}, {@code bi_valid}): the bytes
 * deflate has produced but not yet handed to the caller.
 *
 * <p>zlib keeps 16 bits in {@code bi_buf}; this keeps up to 63 and moves whole bytes out less often. The
 * bit stream is the same; only the moments bits become bytes differ, and at every point zlib exposes
 * (flush_pending, deflatePending, deflatePrime) {@link #flushBits()} leaves exactly the 0 to 7 bits zlib
 * leaves. The byte buffer spills to the sink when full: the caller of this port always has unlimited
 * output space, so zlib's {@code avail_out} limits never apply.
 */
final class PendingOutput {

    private final OutputStream sink;
    private final byte[] buf = new byte[1 << 16];
    private int pending;
    private long bitBuf;
    private int bitCount;

    PendingOutput(OutputStream sink) {
        this.sink = sink;
    }

    /** send_bits(): appends the low {@code length} bits of {@code value}, which has no higher bits set. */
    void sendBits(int value, int length) {
        bitBuf |= (long) value << bitCount;
        bitCount += length;
        if (bitCount >= 32) {
            if (pending + 4 > buf.length) {
                spill();
            }
            int p = pending;
            long b = bitBuf;
            buf[p] = (byte) b;
            buf[p + 1] = (byte) (b >>> 8);
            buf[p + 2] = (byte) (b >>> 16);
            buf[p + 3] = (byte) (b >>> 24);
            pending = p + 4;
            bitBuf = b >>> 32;
            bitCount -= 32;
        }
    }

    /** A segment that starts {@code bits} (0..7) into a byte: its first byte leaves them zero, for the previous segment's. */
    void startAtBit(int bits) {
        bitBuf = 0;
        bitCount = bits;
    }

    /** bi_flush(): moves every whole byte out of the bit buffer, leaving at most 7 bits. */
    void flushBits() {
        while (bitCount >= 8) {
            putByte((int) bitBuf);
            bitBuf >>>= 8;
            bitCount -= 8;
        }
    }

    /** bi_windup(): pads the bit buffer to a byte boundary with zero bits. */
    void windup() {
        flushBits();
        if (bitCount > 0) {
            putByte((int) bitBuf);
        }
        bitBuf = 0;
        bitCount = 0;
    }

    /** The bits deflatePending() reports, valid right after {@link #flushBits()}. */
    int bitCount() {
        return bitCount;
    }

    void putByte(int b) {
        if (pending == buf.length) {
            spill();
        }
        buf[pending++] = (byte) b;
    }

    /** put_short(): least significant byte first; only valid on a byte boundary. */
    void putShort(int w) {
        putByte(w);
        putByte(w >>> 8);
    }

    void putBytes(byte[] src, int offset, int length) {
        while (length > 0) {
            if (pending == buf.length) {
                spill();
            }
            int n = Math.min(length, buf.length - pending);
            System.arraycopy(src, offset, buf, pending, n);
            pending += n;
            offset += n;
            length -= n;
        }
    }

    boolean hasPendingBytes() {
        return pending != 0;
    }

    /** flush_pending(): bi_flush() then hand every complete byte to the sink. */
    void flushPending() {
        flushBits();
        spill();
    }

    /** deflateReset() drops pending output and bits, as zlib does. */
    void reset() {
        pending = 0;
        bitBuf = 0;
        bitCount = 0;
    }

    private void spill() {
        if (pending == 0) {
            return;
        }
        try {
            sink.write(buf, 0, pending);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pending = 0;
    }
}
