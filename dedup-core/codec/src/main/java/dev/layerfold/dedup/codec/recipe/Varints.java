package dev.layerfold.dedup.codec.recipe;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Unsigned LEB128 integers, the recipe's way of writing sizes and counts compactly. */
public final class Varints {

    private Varints() {
    }

    public static void write(OutputStream out, long value) throws IOException {
        if (value < 0) {
            throw new IllegalArgumentException("varints are unsigned, got " + value);
        }
        while ((value & ~0x7fL) != 0) {
            out.write((int) (value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
    }

    public static long read(InputStream in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("recipe ends inside a number");
            }
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("recipe holds a number longer than 63 bits");
    }

    /** Zigzag-encoded, for the few signed values (encoder levels such as Go's -2). */
    static void writeSigned(OutputStream out, long value) throws IOException {
        write(out, (value << 1) ^ (value >> 63));
    }

    static long readSigned(InputStream in) throws IOException {
        long raw = read(in);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static int readInt(InputStream in, int max, String what) throws IOException {
        long value = read(in);
        if (value > max) {
            throw new IOException("recipe " + what + " is " + value + ", more than the limit " + max);
        }
        return (int) value;
    }
}
