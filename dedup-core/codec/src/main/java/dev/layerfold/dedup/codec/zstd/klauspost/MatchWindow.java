package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * The history the match finder searches (compress 1.18.0 enc_base.go): the input so far in a buffer
 * of twice the window; when a block does not fit, the last window's worth moves to the start, and
 * {@link #cur}, the stream position of the buffer's start plus one window, advances by what was dropped.
 * Table entries hold positions plus {@code cur}, so that an empty entry (0) is always out of reach.
 */
final class MatchWindow {

    /**
     * Past this much history the buffer grows to its capacity at once: small frames and the first
     * MiB a candidate encoder is tried on stay small, while a layer's encoder skips the doublings
     * that copied 15 MB and allocated 30 MB more on the way to an 8 MiB window's 16 MiB.
     */
    private static final int GROWN_BY_DOUBLING = 1 << 20;

    final int maxMatchOffset;
    /** Beyond this {@code cur} would overflow an int within two windows: the tables are then rebased. */
    final int bufferReset;
    private final int capacity;
    int cur;
    /** Grown on demand up to {@link #capacity}, which alone decides when history moves. */
    byte[] bytes = new byte[0];
    int length;

    MatchWindow(int windowSize) {
        this.maxMatchOffset = windowSize;
        this.bufferReset = Integer.MAX_VALUE - 2 * windowSize;
        int blockMax = 128 * 1024;
        int capacity = windowSize + (windowSize <= blockMax ? blockMax : windowSize);
        this.capacity = Math.max(capacity, 1 << 20);
        this.cur = windowSize;
    }

    /**
     * Forgets a frame of {@code frameLength} bytes, leaving what a new window and zeroed {@code tables}
     * would find: rather than clearing the tables (megabytes, paid per frame by zstd:chunked's thousands
     * of small ones), cur moves two windows past every position they can hold, so that each entry is
     * as far out of reach as an empty one, which every lookup rejects by its distance alone; only once
     * cur has come half way to {@link #bufferReset} are the tables cleared and cur put back.
     */
    void reset(long frameLength, MatchTable... tables) {
        if (advancePast(frameLength)) {
            for (MatchTable table : tables) {
                table.clear();
            }
        }
    }

    /** {@link #reset(long, MatchTable...)} for tables of buckets kept as arrays, each a position (low 32 bits) and the one before it (high 32). */
    void reset(long frameLength, long[]... buckets) {
        if (advancePast(frameLength)) {
            for (long[] table : buckets) {
                Arrays.fill(table, 0);
            }
        }
    }

    /** Moves cur past a frame of {@code frameLength} bytes; true if it was put back instead, and the tables must be cleared. */
    private boolean advancePast(long frameLength) {
        long next = cur + frameLength + 2L * maxMatchOffset;
        boolean putBack = next > bufferReset / 2;
        cur = putBack ? maxMatchOffset : (int) next;
        length = 0;
        return putBack;
    }

    /**
     * A new window whose first byte lies at {@code position} of the frame's content: {@link #cur} is
     * then what the Writer's is for the bytes it holds, so that a table entry names the same byte in
     * both (an entry is a content position plus one window until the Writer first rebases, past
     * {@link #bufferReset} less two windows of content).
     */
    void startAt(long position) {
        if (length != 0 || position + 3L * maxMatchOffset >= bufferReset) {
            throw new IllegalArgumentException("a window holding " + length + " bytes cannot start at content position " + position);
        }
        cur = (int) position + maxMatchOffset;
    }

    /** Whether {@code cur} is about to overflow: Encode then rebases before adding the next block. */
    boolean nearOverflow() {
        return cur >= bufferReset - length;
    }

    /**
     * Moves every table position still in reach down so that {@code cur} restarts at one window;
     * the others are emptied (Encode's protection against {@code cur} wrapping around).
     */
    void rebase(MatchTable... tables) {
        int minOffset = cur + length - maxMatchOffset;
        for (MatchTable table : tables) {
            table.rebase(this, minOffset);
        }
        cur = maxMatchOffset;
    }

    /** {@link #rebase(MatchTable...)} for tables of buckets kept as arrays ({@link #rebasedBucket}). */
    void rebase(long[]... buckets) {
        int minOffset = cur + length - maxMatchOffset;
        for (long[] table : buckets) {
            for (int i = 0; i < table.length; i++) {
                table[i] = rebasedBucket(table[i], minOffset);
            }
        }
        cur = maxMatchOffset;
    }

    /** A table position after a rebase: emptied when out of reach, else moved with {@code cur}. */
    int rebased(int offset, int minOffset) {
        return offset < minOffset ? 0 : offset - cur + maxMatchOffset;
    }

    /**
     * A bucket (its newest position in the low 32 bits, the one before in the high 32) after a
     * rebase: the position before its newest is emptied with it, or when out of reach, as Go's is.
     */
    long rebasedBucket(long bucket, int minOffset) {
        int newest = (int) bucket;
        int previous = (int) (bucket >>> 32);
        int rebasedPrevious = newest < minOffset || previous < minOffset ? 0 : rebased(previous, minOffset);
        return (long) rebasedPrevious << 32 | rebased(newest, minOffset) & 0xFFFFFFFFL;
    }

    /** How many bytes from {@code s} on equal those from {@code t} on, within {@code src[.., end)}. */
    static int matchLength(byte[] src, int s, int t, int end) {
        int mismatch = Arrays.mismatch(src, s, end, src, t, t + (end - s));
        return mismatch < 0 ? end - s : mismatch;
    }

    /** Appends a block; returns where it starts in {@link #bytes}. */
    int add(byte[] src, int offset, int n) {
        if (length + n > capacity && length > 0) {
            int drop = length - maxMatchOffset;
            System.arraycopy(bytes, drop, bytes, 0, maxMatchOffset);
            cur += drop;
            length = maxMatchOffset;
        }
        if (length + n > bytes.length) {
            int doubled = Math.max(length + n, bytes.length * 2);
            bytes = Arrays.copyOf(bytes, doubled > GROWN_BY_DOUBLING ? Math.max(capacity, length + n) : Math.min(Math.max(capacity, length + n), doubled));
        }
        int start = length;
        System.arraycopy(src, offset, bytes, start, n);
        length += n;
        return start;
    }
}
