package dev.layerfold.dedup.codec.zstd.klauspost;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A growing byte array the block encoder writes into, with the little-endian loads the match finder and hash use. */
final class Bytes {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    byte[] data;
    int length;

    Bytes(int capacity) {
        data = new byte[capacity];
    }

    static long load64(byte[] data, int at) {
        return (long) LONG.get(data, at);
    }

    static int load32(byte[] data, int at) {
        return (int) INT.get(data, at);
    }

    void clear() {
        length = 0;
    }

    void put(int b) {
        ensure(1);
        data[length++] = (byte) b;
    }

    void put(byte[] from, int offset, int n) {
        ensure(n);
        System.arraycopy(from, offset, data, length, n);
        length += n;
    }

    void put(Bytes from) {
        put(from.data, 0, from.length);
    }

    /** Four bytes little-endian in one store: the bit writers' flush, once per 32 bits they write. */
    void putInt(int value) {
        ensure(4);
        INT.set(data, length, value);
        length += 4;
    }

    /** Little-endian, {@code n} of the value's low bytes. */
    void putLittleEndian(long value, int n) {
        ensure(n);
        for (int i = 0; i < n; i++) {
            data[length++] = (byte) (value >>> (8 * i));
        }
    }

    void ensure(int more) {
        if (length + more > data.length) {
            data = Arrays.copyOf(data, Math.max(length + more, data.length * 2));
        }
    }
}
