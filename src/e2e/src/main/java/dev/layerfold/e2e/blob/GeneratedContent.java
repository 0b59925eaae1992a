package dev.layerfold.e2e.blob;

import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A stream of {@code length} pseudo-random, incompressible bytes that depend only on the seed: the
 * same seed gives the same bytes however the stream is read, so huge blobs can be produced twice
 * (to push, then to compare) without ever being stored or held in memory.
 */
public final class GeneratedContent extends InputStream {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long seed;
    private final long length;
    private long position;

    public GeneratedContent(long seed, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative: " + length);
        }
        this.seed = seed;
        this.length = length;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) {
        Objects.checkFromIndexSize(offset, count, buffer.length);
        if (position >= length) {
            return -1;
        }
        int n = (int) Math.min(count, length - position);
        int i = 0;
        // Bytes before the next 8-byte boundary of the stream, one at a time.
        while (i < n && (position + i) % Long.BYTES != 0) {
            buffer[offset + i] = byteAt(position + i);
            i++;
        }
        // Whole words: word w of the stream is a hash of (seed, w), so any read split gives the same bytes.
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            LONGS.set(buffer, offset + i, word((position + i) / Long.BYTES));
        }
        for (; i < n; i++) {
            buffer[offset + i] = byteAt(position + i);
        }
        position += n;
        return n;
    }

    @Override
    public long skip(long n) {
        long skipped = Math.max(0, Math.min(n, length - position));
        position += skipped;
        return skipped;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, length - position);
    }

    private byte byteAt(long index) {
        return (byte) (word(index / Long.BYTES) >>> (8 * (index % Long.BYTES)));
    }

    /** SplitMix64's finaliser over the word's index: fast and statistically random enough to defeat compression. */
    private long word(long index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
