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
            long difference = (long) LE_LONG.get(a, aFrom + i) ^ (long) LE_LONG.get(b, bFrom + i);
            if (difference != 0) {
                return i + (Long.numberOfTrailingZeros(difference) >>> 3);
            }
        }
        while (i < max && a[aFrom + i] == b[bFrom + i]) {
            i++;
        }
        return i;
    }
}
