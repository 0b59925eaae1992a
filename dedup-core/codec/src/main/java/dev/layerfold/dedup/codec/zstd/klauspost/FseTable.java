package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * An FSE compression table from normalized counts, and the two steps that lead to it: normalizing
 * a histogram and writing the normalized counts as a table description. klauspost/compress has
 * these twice (package fse for Huffman weights, zstd's fseEncoder for sequences) with the same
 * arithmetic; both use this class. Ported from compress 1.18.0 (fse/compress.go, zstd/fse_encoder.go).
 */
final class FseTable {

    private static final int[] REST_TO_BEAT = {0, 473195, 504333, 520860, 550000, 700000, 750000, 830000};

    int tableLog;
    /** Whether a symbol has a probability over 50% (some states then emit no bits). */
    boolean zeroBits;
    int stateTableLength;
    char[] stateTable = new char[1];
    final int[] deltaNbBits = new int[256];
    final int[] deltaFindState = new int[256];
    private final byte[] tableSymbol = new byte[1 << 12];

    static int highBit(int value) {
        return 31 - Integer.numberOfLeadingZeros(value);
    }

    /**
     * Normalizes {@code count[0..symbolLen)} of {@code length} symbols to sum to 2^tableLog into
     * {@code norm}, -1 marking a low-probability symbol.
     */
    static void normalize(int[] count, int symbolLen, int length, int tableLog, short[] norm) {
        int scale = 62 - tableLog;
        long step = (1L << 62) / length;
        long vStep = 1L << (scale - 20);
        int stillToDistribute = 1 << tableLog;
        int largest = 0;
        int largestP = 0;
        long lowThreshold = (length >>> tableLog) & 0xFFFFFFFFL;
        for (int i = 0; i < symbolLen; i++) {
            long cnt = count[i] & 0xFFFFFFFFL;
            if (cnt == 0) {
                norm[i] = 0;
                continue;
            }
            if (cnt <= lowThreshold) {
                norm[i] = -1;
                stillToDistribute--;
            } else {
                int proba = (short) ((cnt * step) >>> scale);
                if (proba < 8) {
                    long restToBeat = vStep * REST_TO_BEAT[proba];
                    long v = cnt * step - ((long) proba << scale);
                    if (Long.compareUnsigned(v, restToBeat) > 0) {
                        proba++;
                    }
                }
                if (proba > largestP) {
                    largestP = proba;
                    largest = i;
                }
                norm[i] = (short) proba;
                stillToDistribute -= proba;
            }
        }
        if (-stillToDistribute >= (norm[largest] >> 1)) {
            normalizeSlowly(count, symbolLen, length, tableLog, norm);
            return;
        }
        norm[largest] += (short) stillToDistribute;
    }

    /** The fallback when the largest symbol cannot absorb the rounding error (FSE_normalizeM2). */
    private static void normalizeSlowly(int[] count, int symbolLen, int length, int tableLog, short[] norm) {
        final short notYetAssigned = -2;
        int distributed = 0;
        long total = length & 0xFFFFFFFFL;
        long lowThreshold = total >>> tableLog;
        long lowOne = ((total * 3) & 0xFFFFFFFFL) >>> (tableLog + 1);
        for (int i = 0; i < symbolLen; i++) {
            long cnt = count[i] & 0xFFFFFFFFL;
            if (cnt == 0) {
                norm[i] = 0;
            } else if (cnt <= lowThreshold) {
                norm[i] = -1;
                distributed++;
                total -= cnt;
            } else if (cnt <= lowOne) {
                norm[i] = 1;
                distributed++;
                total -= cnt;
            } else {
                norm[i] = notYetAssigned;
            }
        }
        long toDistribute = ((1L << tableLog) - distributed) & 0xFFFFFFFFL;
        if (total / toDistribute > lowOne) {
            lowOne = ((total * 3) & 0xFFFFFFFFL) / ((toDistribute * 2) & 0xFFFFFFFFL);
            for (int i = 0; i < symbolLen; i++) {
                if (norm[i] == notYetAssigned && (count[i] & 0xFFFFFFFFL) <= lowOne) {
                    norm[i] = 1;
                    distributed++;
                    total -= count[i] & 0xFFFFFFFFL;
                }
            }
            toDistribute = ((1L << tableLog) - distributed) & 0xFFFFFFFFL;
        }
        if (distributed == symbolLen + 1) {
            int maxV = 0;
            long maxC = 0;
            for (int i = 0; i < symbolLen; i++) {
                if ((count[i] & 0xFFFFFFFFL) > maxC) {
                    maxV = i;
                    maxC = count[i] & 0xFFFFFFFFL;
                }
            }
            norm[maxV] += (short) toDistribute;
            return;
        }
        if (total == 0) {
            for (int i = 0; toDistribute > 0; i = (i + 1) % symbolLen) {
                if (norm[i] > 0) {
                    toDistribute--;
                    norm[i]++;
                }
            }
            return;
        }
        int vStepLog = 62 - tableLog;
        long mid = (1L << (vStepLog - 1)) - 1;
        long rStep = Long.divideUnsigned((1L << vStepLog) * toDistribute + mid, total);
        long tmpTotal = mid;
        for (int i = 0; i < symbolLen; i++) {
            if (norm[i] == notYetAssigned) {
                long end = tmpTotal + (count[i] & 0xFFFFFFFFL) * rStep;
                int weight = (int) (end >>> vStepLog) - (int) (tmpTotal >>> vStepLog);
                norm[i] = (short) weight;
                tmpTotal = end;
            }
        }
    }

    /** Builds the table from normalized counts (FSE_buildCTable). */
    void build(short[] norm, int symbolLen, int tableLog) {
        this.tableLog = tableLog;
        int tableSize = 1 << tableLog;
        int highThreshold = tableSize - 1;
        int[] cumul = new int[257];
        for (int u = 0; u < symbolLen; u++) {
            if (norm[u] == -1) {
                cumul[u + 1] = cumul[u] + 1;
                tableSymbol[highThreshold--] = (byte) u;
            } else {
                cumul[u + 1] = cumul[u] + norm[u];
            }
        }
        cumul[symbolLen] = tableSize + 1;
        zeroBits = false;
        int step = (tableSize >>> 1) + (tableSize >>> 3) + 3;
        int mask = tableSize - 1;
        int position = 0;
        int largeLimit = 1 << (tableLog - 1);
        for (int symbol = 0; symbol < symbolLen; symbol++) {
            int v = norm[symbol];
            if (v > largeLimit) {
                zeroBits = true;
            }
            for (int n = 0; n < v; n++) {
                tableSymbol[position] = (byte) symbol;
                position = (position + step) & mask;
                while (position > highThreshold) {
                    position = (position + step) & mask;
                }
            }
        }
        if (stateTable.length < tableSize) {
            stateTable = new char[tableSize];
        }
        stateTableLength = tableSize;
        for (int u = 0; u < tableSize; u++) {
            int symbol = tableSymbol[u] & 0xFF;
            stateTable[cumul[symbol]++] = (char) (tableSize + u);
        }
        int total = 0;
        int tl = (tableLog << 16) - (1 << tableLog);
        for (int i = 0; i < symbolLen; i++) {
            int v = norm[i];
            if (v == -1 || v == 1) {
                deltaNbBits[i] = tl;
                deltaFindState[i] = total - 1;
                total++;
            } else if (v != 0) {
                int maxBitsOut = tableLog - highBit(v - 1);
                int minStatePlus = v << maxBitsOut;
                deltaNbBits[i] = (maxBitsOut << 16) - minStatePlus;
                deltaFindState[i] = total - v;
                total += v;
            }
        }
    }

    /** The state after encoding {@code symbol} first (FSE_initCState2). */
    int initialState(int symbol) {
        int delta = deltaNbBits[symbol];
        int nbBitsOut = (delta + (1 << 15)) >>> 16;
        int im = (nbBitsOut << 16) - delta;
        return stateTable[(im >> nbBitsOut) + deltaFindState[symbol]];
    }

    /** Writes the bits that move {@code state} past {@code symbol}; returns the next state. */
    int encode(BitWriter out, int state, int symbol) {
        int nbBitsOut = (state + deltaNbBits[symbol]) >>> 16;
        out.add(state, nbBitsOut);
        return stateTable[(state >>> (nbBitsOut & 15)) + deltaFindState[symbol]];
    }

    /** Writes normalized counts as an FSE table description (FSE_writeNCount), appending to {@code out}. */
    static void writeNorm(short[] norm, int symbolLen, int tableLog, Bytes out) {
        int tableSize = 1 << tableLog;
        boolean previous0 = false;
        int charnum = 0;
        int bitStream = tableLog - 5;
        int bitCount = 4;
        int remaining = tableSize + 1;
        int threshold = tableSize;
        int nbBits = tableLog + 1;
        while (remaining > 1) {
            if (previous0) {
                int start = charnum;
                while (norm[charnum] == 0) {
                    charnum++;
                }
                while (charnum >= start + 24) {
                    start += 24;
                    bitStream += 0xFFFF << bitCount;
                    out.putLittleEndian(bitStream, 2);
                    bitStream >>>= 16;
                }
                while (charnum >= start + 3) {
                    start += 3;
                    bitStream += 3 << bitCount;
                    bitCount += 2;
                }
                bitStream += (charnum - start) << bitCount;
                bitCount += 2;
                if (bitCount > 16) {
                    out.putLittleEndian(bitStream, 2);
                    bitStream >>>= 16;
                    bitCount -= 16;
                }
            }
            int count = norm[charnum++];
            int max = (2 * threshold - 1) - remaining;
            remaining -= count < 0 ? -count : count;
            count++;
            if (count >= threshold) {
                count += max;
            }
            bitStream += count << bitCount;
            bitCount += nbBits;
            if (count < max) {
                bitCount--;
            }
            previous0 = count == 1;
            while (remaining < threshold) {
                nbBits--;
                threshold >>= 1;
            }
            if (bitCount > 16) {
                out.putLittleEndian(bitStream, 2);
                bitStream >>>= 16;
                bitCount -= 16;
            }
        }
        out.putLittleEndian(bitStream, (bitCount + 7) / 8);
    }
}
