package dev.layerfold.dedup.codec.deflate.golang;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The BestSpeed (level 1) match finder, a Snappy-style single-probe hash table that also matches
 * into the previous block; ported from Go's {@code compress/flate/deflatefast.go}
 * ({@code deflateFast}).
 *
 * <p>Go's int32 offsets wrap exactly like Java ints, so the arithmetic is carried over as is.
 */
final class DeflateFast {

    private static final int TABLE_BITS = 14;
    private static final int TABLE_SIZE = 1 << TABLE_BITS;
    private static final int TABLE_MASK = TABLE_SIZE - 1;
    private static final int TABLE_SHIFT = 32 - TABLE_BITS;
    private static final int MAX_STORE_BLOCK_SIZE = HuffmanBitWriter.MAX_STORE_BLOCK_SIZE;
    private static final int MAX_MATCH_OFFSET = 1 << 15;
    private static final int MAX_MATCH_LENGTH = 258;
    private static final int BASE_MATCH_LENGTH = 3;
    private static final int BASE_MATCH_OFFSET = 1;
    /** Offsets are rebased before {@link #cur} could overflow an int. */
    private static final int BUFFER_RESET = Integer.MAX_VALUE - MAX_STORE_BLOCK_SIZE * 2;
    private static final int INPUT_MARGIN = 16 - 1;
    private static final int MIN_NON_LITERAL_BLOCK_SIZE = 1 + 1 + INPUT_MARGIN;

    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Go's table of {val, offset} entries as two parallel arrays. */
    private final int[] tableVal = new int[TABLE_SIZE];
    private final int[] tableOffset = new int[TABLE_SIZE];
    /** The previous block, {@link #prevLength} bytes of it; none when zero. */
    private final byte[] prev = new byte[MAX_STORE_BLOCK_SIZE];
    private int prevLength;
    /** The current match offset. */
    private int cur = MAX_STORE_BLOCK_SIZE;

    private static int load32(byte[] b, int i) {
        return (int) LE_INT.get(b, i);
    }

    private static long load64(byte[] b, int i) {
        return (long) LE_LONG.get(b, i);
    }

    private static int hash(int u) {
        return (u * 0x1e35a7bd) >>> TABLE_SHIFT;
    }

    /**
     * Encodes {@code src[0..srcLength)} into {@code dst} and returns the number of tokens written.
     * {@code dst} must hold {@code srcLength} tokens.
     */
    int encode(int[] dst, byte[] src, int srcLength) {
        if (cur >= BUFFER_RESET) {
            shiftOffsets();
        }
        // Snappy leaves this check to its caller.
        if (srcLength < MIN_NON_LITERAL_BLOCK_SIZE) {
            cur += MAX_STORE_BLOCK_SIZE;
            prevLength = 0;
            return emitLiteral(dst, 0, src, 0, srcLength);
        }
        int[] tableVal = this.tableVal;
        int[] tableOffset = this.tableOffset;
        int cur = this.cur;
        int count = 0;
        // Beyond sLimit no copy is looked for, which lets the loop read 8 bytes ahead unchecked.
        int sLimit = srcLength - INPUT_MARGIN;
        int nextEmit = 0;
        int s = 0;
        int cv = load32(src, s);
        int nextHash = hash(cv);

        outer:
        while (true) {
            // Heuristic match skipping (from C++ Snappy): after 32 bytes without a match look at
            // every other byte, after 32 more at every third, and so on, until a match is found.
            int skip = 32;
            int nextS = s;
            int candidateVal;
            int candidateOffset;
            while (true) {
                s = nextS;
                int bytesBetweenHashLookups = skip >> 5;
                nextS = s + bytesBetweenHashLookups;
                skip += bytesBetweenHashLookups;
                if (nextS > sLimit) {
                    break outer;
                }
                int slot = nextHash & TABLE_MASK;
                candidateVal = tableVal[slot];
                candidateOffset = tableOffset[slot];
                int now = load32(src, nextS);
                tableVal[slot] = cv;
                tableOffset[slot] = s + cur;
                nextHash = hash(now);
                int offset = s - (candidateOffset - cur);
                if (offset > MAX_MATCH_OFFSET || cv != candidateVal) {
                    cv = now;
                    continue;
                }
                break;
            }
            // A 4-byte match at s; src[nextEmit..s) has none.
            count = emitLiteral(dst, count, src, nextEmit, s);

            // Emit copies while the input right after each one matches again.
            while (true) {
                s += 4;
                int t = candidateOffset - cur + 4;
                int l = matchLen(s, t, src, srcLength);
                dst[count++] = Tokens.matchToken(l + 4 - BASE_MATCH_LENGTH, s - t - BASE_MATCH_OFFSET);
                s += l;
                nextEmit = s;
                if (s >= sLimit) {
                    break outer;
                }
                // Update the table at s-1 and s, and probe at s, from one 8-byte load.
                long x = load64(src, s - 1);
                int prevHash = hash((int) x);
                tableVal[prevHash & TABLE_MASK] = (int) x;
                tableOffset[prevHash & TABLE_MASK] = cur + s - 1;
                x >>>= 8;
                int currHash = hash((int) x) & TABLE_MASK;
                candidateVal = tableVal[currHash];
                candidateOffset = tableOffset[currHash];
                tableVal[currHash] = (int) x;
                tableOffset[currHash] = cur + s;
                int offset = s - (candidateOffset - cur);
                if (offset > MAX_MATCH_OFFSET || (int) x != candidateVal) {
                    cv = (int) (x >>> 8);
                    nextHash = hash(cv);
                    s++;
                    break;
                }
            }
        }
        if (nextEmit < srcLength) {
            count = emitLiteral(dst, count, src, nextEmit, srcLength);
        }
        this.cur = cur + srcLength;
        System.arraycopy(src, 0, prev, 0, srcLength);
        prevLength = srcLength;
        return count;
    }

    private static int emitLiteral(int[] dst, int count, byte[] src, int from, int to) {
        for (int i = from; i < to; i++) {
            dst[count++] = src[i] & 0xFF;
        }
        return count;
    }

    /**
     * The match length between {@code src[s..]} and {@code src[t..]}, where a negative {@code t}
     * starts the match in the previous block. {@code src[s-4..s)} and {@code src[t-4..t)} match.
     */
    private int matchLen(int s, int t, byte[] src, int srcLength) {
        int s1 = Math.min(s + MAX_MATCH_LENGTH - 4, srcLength);
        if (t >= 0) {
            return MatchLength.of(src, s, src, t, s1 - s);
        }
        // The match starts in the previous block.
        int tp = prevLength + t;
        if (tp < 0) {
            return 0;
        }
        int n = Math.min(prevLength - tp, s1 - s);
        int inPrev = MatchLength.of(src, s, prev, tp, n);
        if (inPrev < n || s + n == s1) {
            return inPrev;
        }
        // It ran to the end of the previous block: continue at the start of this one.
        return n + MatchLength.of(src, s + n, src, 0, s1 - s - n);
    }

    /**
     * Whether the next {@link #encode} finds the same matches as {@code other}'s: the same previous
     * block and, in every slot, either an entry neither can use or the same value at the same
     * distance. Absolute offsets differ between a warmed-up encoder and the original and do not
     * matter; an entry more than {@value #MAX_MATCH_OFFSET} back is rejected wherever it lies.
     */
    boolean sameMatchState(DeflateFast other) {
        if (prevLength != other.prevLength || !Arrays.equals(prev, 0, prevLength, other.prev, 0, prevLength)) {
            return false;
        }
        for (int i = 0; i < TABLE_SIZE; i++) {
            int distance = cur - tableOffset[i];
            int otherDistance = other.cur - other.tableOffset[i];
            boolean usable = distance <= MAX_MATCH_OFFSET;
            if (usable != otherDistance <= MAX_MATCH_OFFSET
                    || usable && (distance != otherDistance || tableVal[i] != other.tableVal[i])) {
                return false;
            }
        }
        return true;
    }

    /** Forgets the history, so that no match reaches into the previous block. */
    void reset() {
        prevLength = 0;
        // Every table entry falls out of range.
        cur += MAX_MATCH_OFFSET;
        if (cur >= BUFFER_RESET) {
            shiftOffsets();
        }
    }

    /** Rebases every offset so that {@link #cur} restarts low; rare (every 2 GiB of input). */
    private void shiftOffsets() {
        if (prevLength == 0) {
            Arrays.fill(tableVal, 0);
            Arrays.fill(tableOffset, 0);
            cur = MAX_MATCH_OFFSET + 1;
            return;
        }
        for (int i = 0; i < TABLE_SIZE; i++) {
            // Entries already out of range are capped at 0.
            tableOffset[i] = Math.max(0, tableOffset[i] - cur + MAX_MATCH_OFFSET + 1);
        }
        cur = MAX_MATCH_OFFSET + 1;
    }
}
