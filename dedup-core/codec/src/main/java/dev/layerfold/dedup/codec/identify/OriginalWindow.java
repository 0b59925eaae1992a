package dev.layerfold.dedup.codec.identify;

import java.util.Arrays;

/**
 * The original deflate bytes that some live candidate has not yet reproduced: from the slowest
 * candidate's position to the last byte read. Bounded by how far an encoder lags its input (about
 * one block), not by the layer's size.
 */
final class OriginalWindow {

    private byte[] bytes = new byte[64 * 1024];
    private long start;
    private int length;

    void append(byte[] data, int offset, int count) {
        if (length + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + count));
        }
        System.arraycopy(data, offset, bytes, length, count);
        length += count;
    }

    /** Offset in the deflate stream just past the last byte read. */
    long end() {
        return start + length;
    }

    /**
     * Compares {@code count} candidate bytes, which belong at stream position {@code position},
     * with the original; the range must lie inside the window. Returns true if they are equal.
     */
    boolean matches(long position, byte[] data, int offset, int count) {
        int from = (int) (position - start);
        return Arrays.equals(bytes, from, from + count, data, offset, offset + count);
    }

    /** Forgets bytes before {@code position}: every live candidate has got past them. */
    void discardBefore(long position) {
        int drop = (int) Math.min(length, position - start);
        if (drop <= 0) {
            return;
        }
        System.arraycopy(bytes, drop, bytes, 0, length - drop);
        length -= drop;
        start += drop;
    }
}
