package dev.layerfold.dedup.codec.deflate.zlib;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The window comparisons of longest_match() (zlib's and GNU gzip's), several bytes per load: they
 * decide exactly what the byte-at-a-time C loops decide, with fewer loads and bounds checks in the
 * hottest loop of levels 4 to 9. A window keeps {@link #SLACK} bytes past its end for them.
 */
final class MatchBytes {

    /** Bytes a window holds past its end, so that an 8-byte load at its last compared byte stays inside. */
    static final int SLACK = 8;

    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private MatchBytes() {
    }

    /** The bytes at {@code at} and {@code at + 1} as one value: two pairs are equal exactly when both their bytes are. */
    static short pair(byte[] window, int at) {
        return (short) SHORTS.get(window, at);
    }

    /** How many bytes from {@code a} and {@code b} are equal, at most {@code max}. */
    static int commonPrefix(byte[] window, int a, int b, int max) {
        int n = 0;
        while (n < max) {
            long x = (long) LONGS.get(window, a + n) ^ (long) LONGS.get(window, b + n);
            if (x != 0) {
                return Math.min(max, n + (Long.numberOfTrailingZeros(x) >>> 3));
            }
            n += 8;
        }
        return max;
    }
}
