package dev.layerfold.dedup.codec.deflate.golang;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Go's {@code matchLen} loops (in {@code deflate.go} and {@code deflatefast.go}) eight bytes at a
 * time: the count of equal leading bytes is the same, found several times faster.
 */
final class MatchLength {

    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private MatchLength() {
    }

    /**
     * How many of the {@code max} bytes from {@code a[aFrom]} and {@code b[bFrom]} are equal before
     * the first difference; both ranges must lie within their arrays.
     */
    static int of(byte[] a, int aFrom, byte[] b, int bFrom, int max) {
        int i = 0;
        for (; i + 8 <= max; i += 8) {
            long difference = difference(a, aFrom + i, b, bFrom + i);
            if (difference != 0) {
                return i + equalBytes(difference);
            }
        }
        while (i < max && a[aFrom + i] == b[bFrom + i]) {
            i++;
        }
        return i;
    }

    /**
     * The XOR of the eight bytes at {@code a[aFrom]} and at {@code b[bFrom]}, read little-endian:
     * zero when all are equal. Small enough to inline where {@link #of} would be a call, so that
     * a hot loop can settle short matches itself.
     */
    static long difference(byte[] a, int aFrom, byte[] b, int bFrom) {
        return (long) LE_LONG.get(a, aFrom) ^ (long) LE_LONG.get(b, bFrom);
    }

    /** How many leading bytes a non-zero {@link #difference} says are equal. */
    static int equalBytes(long difference) {
        return Long.numberOfTrailingZeros(difference) >>> 3;
    }
}
