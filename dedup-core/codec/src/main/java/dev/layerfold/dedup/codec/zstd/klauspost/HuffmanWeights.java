package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Writes a Huffman code's description (compress 1.18.0 huff0's cTable.write): its weights
 * FSE-compressed by package fse (table log 6) when that is shorter than half the symbols, else
 * four bits each when there are at most 128.
 */
final class HuffmanWeights {

    private static final int FSE_TABLE_LOG = 6;

    private final int[] weights = new int[257];
    private final int[] histogram = new int[256];
    private final short[] norm = new short[256];
    private final FseTable table = new FseTable();
    private final Bytes compressed = new Bytes(256);
    private final BitWriter bits = new BitWriter();

    /** Appends the description of {@code code} to {@code out}; false if it cannot be described (the literals then go raw). */
    boolean write(HuffmanCode code, Bytes out) {
        int maxSymbolValue = code.length - 1;
        int huffLog = code.tableLog;
        java.util.Arrays.fill(histogram, 0, 16, 0);
        for (int n = 0; n < maxSymbolValue; n++) {
            int nb = code.nBits[n];
            int weight = nb == 0 ? 0 : (huffLog + 1 - nb) & 15;
            weights[n] = weight;
            histogram[weight]++;
        }
        if (maxSymbolValue >= 2) {
            int maxCount = 0;
            int maxWeight = 0;
            for (int i = 0; i < 16; i++) {
                if (histogram[i] != 0) {
                    maxWeight = i;
                    maxCount = Math.max(maxCount, histogram[i]);
                }
            }
            if (compress(maxSymbolValue, maxWeight + 1, maxCount) && compressed.length < code.length >> 1) {
                out.put(compressed.length);
                out.put(compressed);
                return true;
            }
        }
        if (maxSymbolValue > 128) {
            return false;
        }
        out.put(128 | (maxSymbolValue - 1));
        weights[maxSymbolValue] = 0;
        for (int n = 0; n < maxSymbolValue; n += 2) {
            out.put(weights[n] << 4 | weights[n + 1]);
        }
        return true;
    }

    /** FSE-compresses the first {@code length} weights into {@link #compressed} (fse.Compress); false where package fse refuses. */
    private boolean compress(int length, int symbolLen, int maxCount) {
        if (length <= 1 || maxCount == length || maxCount == 1 || maxCount < length >> 7) {
            return false;
        }
        int tableLog = optimalTableLog(length, symbolLen);
        FseTable.normalize(histogram, symbolLen, length, tableLog, norm);
        compressed.clear();
        FseTable.writeNorm(norm, symbolLen, tableLog, compressed);
        table.build(norm, symbolLen, tableLog);
        if (length <= 2) {
            return false;
        }
        bits.reset(compressed);
        int ip = length;
        int state1;
        int state2;
        if ((ip & 1) == 1) {
            state1 = table.initialState(weights[ip - 1]);
            state2 = table.initialState(weights[ip - 2]);
            state1 = table.encode(bits, state1, weights[ip - 3]);
            ip -= 3;
        } else {
            state2 = table.initialState(weights[ip - 1]);
            state1 = table.initialState(weights[ip - 2]);
            ip -= 2;
        }
        if ((ip & 2) != 0) {
            state2 = table.encode(bits, state2, weights[ip - 1]);
            state1 = table.encode(bits, state1, weights[ip - 2]);
            ip -= 2;
        }
        for (; ip >= 4; ip -= 4) {
            state2 = table.encode(bits, state2, weights[ip - 1]);
            state1 = table.encode(bits, state1, weights[ip - 2]);
            state2 = table.encode(bits, state2, weights[ip - 3]);
            state1 = table.encode(bits, state1, weights[ip - 4]);
        }
        bits.add(state2, tableLog);
        bits.add(state1, tableLog);
        bits.close();
        return compressed.length < length;
    }

    private static int optimalTableLog(int length, int symbolLen) {
        int minBitsSrc = FseTable.highBit(length - 1) + 1;
        int minBitsSymbols = FseTable.highBit(symbolLen - 1) + 2;
        int minBits = Math.min(minBitsSrc, minBitsSymbols);
        int maxBitsSrc = (FseTable.highBit(length - 1) - 2) & 0xFF;
        int tableLog = FSE_TABLE_LOG;
        if (maxBitsSrc < tableLog) {
            tableLog = maxBitsSrc;
        }
        if (minBits > tableLog) {
            tableLog = minBits;
        }
        return Math.max(5, Math.min(12, tableLog));
    }
}
