package dev.layerfold.dedup.codec.deflate.klauspost;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What the level 1 to 6 encoders share: Go 1.27's {@code fastGen} in
 * {@code compress/flate/deflatefast.go}. The history keeps the last 32 KiB before the block being
 * encoded; table entries are positions plus {@link #cur}, so moving the history down does not
 * touch the tables.
 *
 * <p>The history is one array of Go's capacity ({@code allocHistory}) and reads may go past its
 * filled length within that capacity, as Go's re-slicing does, seeing the same stale bytes.
 */
abstract class FastEncoder {

    static final int TABLE_BITS = 15;
    static final int TABLE_SIZE = 1 << TABLE_BITS;
    static final int MAX_MATCH_OFFSET = 1 << 15;
    static final int MAX_MATCH_LENGTH = 258;
    static final int INPUT_MARGIN = 12 - 1;
    static final int MIN_NON_LITERAL_BLOCK_SIZE = 1 + 1 + INPUT_MARGIN;
    private static final int MAX_STORE_BLOCK_SIZE = 65535;
    private static final int ALLOC_HISTORY = MAX_STORE_BLOCK_SIZE * 5;
    /** Go's {@code (1 << 31) - allocHistory - maxStoreBlockSize - 1}. */
    static final int BUFFER_RESET = Integer.MAX_VALUE - ALLOC_HISTORY - MAX_STORE_BLOCK_SIZE;

    private static final long PRIME4 = 2654435761L;
    private static final long PRIME5 = 889523592379L;
    private static final long PRIME7 = 58295818150454627L;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    final byte[] hist = new byte[ALLOC_HISTORY];
    int histLen;
    int cur = MAX_STORE_BLOCK_SIZE;

    static FastEncoder forLevel(int level, FlateRelease release) {
        return switch (level) {
            case 1 -> new FastEncoderL1(release.fastLevelsHashFourBytes);
            case 2 -> new FastEncoderL2(release.fastLevelsHashFourBytes);
            case 3 -> new FastEncoderL3(release.fastLevelsHashFourBytes);
            case 4 -> new FastEncoderL4(release.level4MeasuresNextAtItsPosition);
            case 5 -> new FastEncoderL5(release.longerMatchTriedFromMatchStart);
            case 6 -> new FastEncoderL6(release.longerMatchTriedFromMatchStart);
            default -> throw new IllegalArgumentException("no fast encoder for level " + level);
        };
    }

    /** Encodes {@code in[offset..offset+length)} into {@code dst}, matching against the history too. */
    abstract void encode(Tokens dst, byte[] in, int offset, int length);

    /** Go's table shift against {@code cur} running out of int32 range. */
    abstract void shiftTables(int minOff);

    /** Forgets the history so no match reaches data before this point. */
    final void reset() {
        if (cur <= BUFFER_RESET) {
            cur += MAX_MATCH_OFFSET + histLen;
        }
        histLen = 0;
    }

    /** The start of every level's {@code encode}: protects {@code cur} from wrapping, then appends the block. */
    final int prepare(byte[] in, int offset, int length) {
        while (cur >= BUFFER_RESET) {
            if (histLen == 0) {
                clearTables();
                cur = MAX_MATCH_OFFSET;
                break;
            }
            shiftTables(cur + histLen - MAX_MATCH_OFFSET);
            cur = MAX_MATCH_OFFSET;
        }
        return addBlock(in, offset, length);
    }

    abstract void clearTables();

    /** The level's hash tables: entries are positions plus {@link #cur}, 0 for none. */
    abstract int[][] tables();

    /**
     * Where in the history block {@code block} (counted from the stream's start, all blocks full)
     * is appended: {@link #addBlock} moves the last 32 KiB down when the next block does not fit,
     * so this cycles with a period of four blocks after the first five.
     */
    static int historyStartOfBlock(long block) {
        int blocksPerMove = (ALLOC_HISTORY - MAX_MATCH_OFFSET) / MAX_STORE_BLOCK_SIZE;
        return block < ALLOC_HISTORY / MAX_STORE_BLOCK_SIZE ? (int) block * MAX_STORE_BLOCK_SIZE
                : MAX_MATCH_OFFSET + (int) ((block - ALLOC_HISTORY / MAX_STORE_BLOCK_SIZE) % blocksPerMove) * MAX_STORE_BLOCK_SIZE;
    }

    /**
     * A fresh encoder about to take block {@code block} of a stream as the original did: its history
     * laid out as the original's was there, {@code input[offset..offset+length)} (the input right
     * before the block, as much as the history keeps) at its end, and the tables empty.
     */
    final void startAtBlock(long block, byte[] input, int offset, int length) {
        clearTables();
        histLen = historyStartOfBlock(block);
        int n = Math.min(length, histLen);
        System.arraycopy(input, offset + length - n, hist, histLen - n, n);
    }

    /**
     * Whether the next blocks are encoded as {@code other} would encode them, given the same
     * input: the same history layout, and every table entry a later match may take (one less than
     * 32 KiB back from the history's end, the next block's start) at the same position in both;
     * older entries fail every distance check, whatever they hold.
     */
    final boolean sameMatchState(FastEncoder other) {
        if (histLen != other.histLen) {
            return false;
        }
        int reach = histLen - MAX_MATCH_OFFSET;
        int[][] mine = tables();
        int[][] theirs = other.tables();
        for (int t = 0; t < mine.length; t++) {
            for (int i = 0; i < mine[t].length; i++) {
                int a = mine[t][i] - cur;
                int b = theirs[t][i] - other.cur;
                if (a != b && (a >= reach || b >= reach)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Go's table-entry shift: entries too far back become 0, the rest relative to the new {@code cur}. */
    final int shifted(int v, int minOff) {
        return v <= minOff ? 0 : v - cur + MAX_MATCH_OFFSET;
    }

    private int addBlock(byte[] in, int offset, int length) {
        if (histLen + length > hist.length) {
            int moveFrom = histLen - MAX_MATCH_OFFSET;
            System.arraycopy(hist, moveFrom, hist, 0, MAX_MATCH_OFFSET);
            cur += moveFrom;
            histLen = MAX_MATCH_OFFSET;
        }
        int s = histLen;
        System.arraycopy(in, offset, hist, histLen, length);
        histLen += length;
        return s;
    }

    static long load64(byte[] b, int i) {
        return (long) LONG.get(b, i);
    }

    static int load32(byte[] b, int i) {
        return (int) INT.get(b, i);
    }

    static int hash4(long u, int bits) {
        return ((int) u * (int) PRIME4) >>> (32 - bits);
    }

    static int hash5(long u, int bits) {
        return (int) (((u << 24) * PRIME5) >>> (64 - bits));
    }

    static int hash7(long u, int bits) {
        return (int) (((u << 8) * PRIME7) >>> (64 - bits));
    }

    /** Go's {@code matchLen(src[s:end], src[t:])}. */
    static int matchLen(byte[] src, int s, int end, int t) {
        int n = 0;
        int left = end - s;
        while (left >= 8) {
            long diff = load64(src, s + n) ^ load64(src, t + n);
            if (diff != 0) {
                return n + (Long.numberOfTrailingZeros(diff) >> 3);
            }
            n += 8;
            left -= 8;
        }
        while (n < end - s && src[s + n] == src[t + n]) {
            n++;
        }
        return n;
    }

    /** {@code matchLenLimited}: at most 254 bytes. */
    final int matchLenLimited(int s, int t) {
        return matchLen(hist, s, Math.min(s + MAX_MATCH_LENGTH - 4, histLen), t);
    }

    final int matchLenLong(int s, int t) {
        return matchLen(hist, s, histLen, t);
    }

    /** The literals after the last match; none if the block made no token (it is stored). */
    final void emitRemainder(Tokens dst, int nextEmit) {
        if (nextEmit < histLen && dst.n != 0) {
            dst.addLiterals(hist, nextEmit, histLen);
        }
    }
}
