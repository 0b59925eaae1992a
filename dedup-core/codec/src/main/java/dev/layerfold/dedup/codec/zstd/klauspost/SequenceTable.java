package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * One of a block's three sequence codes (literal lengths, offsets, match lengths) as
 * klauspost/compress 1.18.0's zstd fseEncoder handles it: a histogram, the table built from it (or
 * RLE), and what it costs to code a histogram with it, which decides between a new table, the
 * previous block's and the predefined one. Which of those a block used is tracked by identity
 * ({@link SequenceCoders}), as the Go encoder does with pointers.
 */
final class SequenceTable {

    private static final int MAX_TABLE_LOG = 8;
    private static final int MIN_TABLE_LOG = 5;
    static final long UNUSABLE = 0xFFFFFFFFL;

    final int[] count = new int[256];
    final short[] norm = new short[256];
    final FseTable table = new FseTable();
    /** Extra bits each code carries, once set by {@link #setBits}. */
    final int[] outBits = new int[256];
    int symbolLen;
    int maxCount;
    boolean useRle;
    int rleSymbol;
    boolean predefined;
    boolean reused;

    /** A predefined table (RFC 8878 3.1.1.3.2.2), with the extra bits of each code. */
    static SequenceTable predefined(int tableLog, short[] normalized, int[] extraBits) {
        SequenceTable predefined = new SequenceTable();
        System.arraycopy(normalized, 0, predefined.norm, 0, normalized.length);
        predefined.symbolLen = normalized.length;
        predefined.table.build(predefined.norm, predefined.symbolLen, tableLog);
        predefined.setBits(extraBits);
        predefined.predefined = true;
        return predefined;
    }

    void histogramFinished(int maxSymbol, int maxCount) {
        this.maxCount = maxCount;
        this.symbolLen = maxSymbol + 1;
    }

    /** Normalizes the histogram of {@code length} codes and builds the table, or marks it RLE. */
    void normalize(int length) {
        if (reused) {
            return;
        }
        int tableLog = optimalTableLog(length);
        table.tableLog = tableLog;
        if (maxCount == length) {
            useRle = true;
            return;
        }
        useRle = false;
        FseTable.normalize(count, symbolLen, length, tableLog, norm);
        table.build(norm, symbolLen, tableLog);
    }

    private int optimalTableLog(int length) {
        int tableLog = MAX_TABLE_LOG;
        int minBitsSrc = FseTable.highBit(length) + 1;
        int minBitsSymbols = FseTable.highBit(symbolLen - 1) + 2;
        int minBits = Math.min(minBitsSrc, minBitsSymbols);
        int maxBitsSrc = (FseTable.highBit(length - 1) - 2) & 0xFF;
        if (maxBitsSrc < tableLog) {
            tableLog = maxBitsSrc;
        }
        if (minBits > tableLog) {
            tableLog = minBits;
        }
        return Math.max(MIN_TABLE_LOG, Math.min(MAX_TABLE_LOG, tableLog));
    }

    void setRle(int symbol) {
        table.tableLog = 0;
        table.stateTableLength = 1;
        table.stateTable[0] = 0;
        table.deltaNbBits[symbol] = 0;
        table.deltaFindState[symbol] = 0;
        outBits[symbol] = 0;
        rleSymbol = symbol;
        useRle = true;
    }

    /** Sets each code's extra bits: {@code extraBits[code]}, or the code itself for offsets (null). */
    void setBits(int[] extraBits) {
        if (reused || predefined) {
            return;
        }
        if (useRle) {
            outBits[rleSymbol] = extraBits == null ? rleSymbol : extraBits[rleSymbol];
            return;
        }
        for (int i = 0; i < symbolLen; i++) {
            outBits[i] = extraBits == null ? i : extraBits[i];
        }
    }

    /** Bits to code {@code hist} with this table, in 1/256 bits summed then truncated; {@link #UNUSABLE} if it cannot. */
    long approxSize(int[] hist, int histLen) {
        if (symbolLen < histLen || useRle) {
            return UNUSABLE;
        }
        final int accuracyLog = 8;
        long badCost = (long) (table.tableLog + 1) << accuracyLog;
        long cost = 0;
        for (int i = 0; i < histLen; i++) {
            if (hist[i] == 0) {
                continue;
            }
            if (norm[i] == 0) {
                return UNUSABLE;
            }
            long bitCost = bitCost(i, accuracyLog);
            if (bitCost > badCost) {
                return UNUSABLE;
            }
            cost = (cost + (hist[i] & 0xFFFFFFFFL) * bitCost) & 0xFFFFFFFFL;
        }
        return cost >>> accuracyLog;
    }

    private long bitCost(int symbol, int accuracyLog) {
        long delta = table.deltaNbBits[symbol] & 0xFFFFFFFFL;
        long minNbBits = delta >>> 16;
        long threshold = (minNbBits + 1) << 16;
        long tableSize = 1L << table.tableLog;
        long deltaFromThreshold = (threshold - (delta + tableSize)) & 0xFFFFFFFFL;
        long normalizedDelta = ((deltaFromThreshold << accuracyLog) & 0xFFFFFFFFL) >>> table.tableLog;
        return (((minNbBits + 1) << accuracyLog) - normalizedDelta) & 0xFFFFFFFFL;
    }

    long maxHeaderSize() {
        if (predefined) {
            return 0;
        }
        if (useRle) {
            return 8;
        }
        return (((long) symbolLen * table.tableLog >>> 3) + 3) * 8;
    }

    /** Writes the table description a block carries for this table's mode: the RLE symbol, the counts, or nothing. */
    void writeDescription(Bytes out) {
        if (useRle) {
            out.put(rleSymbol);
        } else if (!predefined && !reused) {
            FseTable.writeNorm(norm, symbolLen, table.tableLog, out);
        }
    }
}
