package dev.layerfold.dedup.codec.deflate.golang;

import java.util.Arrays;

/**
 * Compares two byte streams as they are produced, from two threads, holding only the part one
 * side has produced and the other not yet: big outputs are compared without being kept.
 */
final class StreamComparison {

    private byte[] ahead = new byte[1 << 16];
    private int aheadStart;
    private int aheadEnd;
    /** Whether {@link #ahead} holds expected (true) or actual (false) bytes. */
    private boolean aheadIsExpected;
    private long matched;
    private long firstMismatch = -1;
    private long expectedLength;
    private long actualLength;

    synchronized void expected(byte[] b, int offset, int length) {
        expectedLength += length;
        add(true, b, offset, length);
    }

    synchronized void actual(byte[] b, int offset, int length) {
        actualLength += length;
        add(false, b, offset, length);
    }

    private void add(boolean expected, byte[] b, int offset, int length) {
        if (firstMismatch >= 0) {
            return;
        }
        if (aheadStart == aheadEnd || aheadIsExpected == expected) {
            append(b, offset, length);
            aheadIsExpected = expected;
            return;
        }
        int overlap = Math.min(length, aheadEnd - aheadStart);
        int mismatch = Arrays.mismatch(ahead, aheadStart, aheadStart + overlap, b, offset, offset + overlap);
        if (mismatch >= 0) {
            firstMismatch = matched + mismatch;
            return;
        }
        matched += overlap;
        aheadStart += overlap;
        if (overlap < length) {
            aheadStart = aheadEnd = 0;
            append(b, offset + overlap, length - overlap);
            aheadIsExpected = expected;
        }
    }

    private void append(byte[] b, int offset, int length) {
        if (aheadEnd + length > ahead.length) {
            int pending = aheadEnd - aheadStart;
            byte[] target = pending + length > ahead.length
                    ? new byte[Math.max(ahead.length * 2, pending + length)] : ahead;
            System.arraycopy(ahead, aheadStart, target, 0, pending);
            ahead = target;
            aheadStart = 0;
            aheadEnd = pending;
        }
        System.arraycopy(b, offset, ahead, aheadEnd, length);
        aheadEnd += length;
    }

    /** Empty when both streams are complete and equal, else what differs. */
    synchronized String difference() {
        if (firstMismatch >= 0) {
            return "the streams differ first at byte " + firstMismatch;
        }
        if (expectedLength != actualLength) {
            return "expected " + expectedLength + " bytes, got " + actualLength + " (equal up to "
                    + Math.min(expectedLength, actualLength) + ")";
        }
        return "";
    }

    synchronized long length() {
        return actualLength;
    }
}
