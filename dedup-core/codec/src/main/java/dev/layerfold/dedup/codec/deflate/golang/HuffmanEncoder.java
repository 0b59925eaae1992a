package dev.layerfold.dedup.codec.deflate.golang;

import java.util.Arrays;

/**
 * Length-limited canonical Huffman code construction, ported from Go's
 * {@code compress/flate/huffman_code.go} ({@code huffmanEncoder}).
 *
 * <p>Go sorts with the unstable {@code sort.Sort}, but both orders it uses (frequency then literal,
 * and literal alone) are total over distinct literals, so any correct sort yields Go's codes. Nodes
 * are packed as {@code freq << 16 | literal} longs, whose natural order is exactly Go's
 * {@code byFreq}.
 */
final class HuffmanEncoder {

    private static final int MAX_BITS_LIMIT = 16;
    private static final long MAX_NODE = ((long) Integer.MAX_VALUE << 16) | 0xFFFF;

    static final HuffmanEncoder FIXED_LITERAL_ENCODING = fixedLiteralEncoding();
    static final HuffmanEncoder FIXED_OFFSET_ENCODING = fixedOffsetEncoding();

    /** Per symbol: the bit-reversed code in the low 16 bits, its length in bits above them. */
    final int[] codes;

    private final long[] freqCache = new long[HuffmanBitWriter.MAX_NUM_LIT + 1];
    private final int[] bitCount = new int[17];
    private final int[] chunkLiterals = new int[HuffmanBitWriter.MAX_NUM_LIT];
    // bitCounts' per-call state (Go keeps it on the stack): levelInfo fields, one array per field.
    private final int[] lastFreq = new int[MAX_BITS_LIMIT];
    private final int[] nextCharFreq = new int[MAX_BITS_LIMIT];
    private final int[] nextPairFreq = new int[MAX_BITS_LIMIT];
    private final int[] needed = new int[MAX_BITS_LIMIT];
    /** Go's {@code leafCounts[level][j]}, flattened to {@code [level * MAX_BITS_LIMIT + j]}. */
    private final int[] leafCounts = new int[MAX_BITS_LIMIT * MAX_BITS_LIMIT];

    HuffmanEncoder(int size) {
        codes = new int[size];
    }

    static int code(int code) {
        return code & 0xFFFF;
    }

    static int length(int code) {
        return code >>> 16;
    }

    private static int hcode(int code, int length) {
        return length << 16 | code;
    }

    private static HuffmanEncoder fixedLiteralEncoding() {
        HuffmanEncoder h = new HuffmanEncoder(HuffmanBitWriter.MAX_NUM_LIT);
        for (int ch = 0; ch < HuffmanBitWriter.MAX_NUM_LIT; ch++) {
            int bits;
            int size;
            if (ch < 144) {
                bits = ch + 48;
                size = 8;
            } else if (ch < 256) {
                bits = ch + 400 - 144;
                size = 9;
            } else if (ch < 280) {
                bits = ch - 256;
                size = 7;
            } else {
                bits = ch + 192 - 280;
                size = 8;
            }
            h.codes[ch] = hcode(reverseBits(bits, size), size);
        }
        return h;
    }

    private static HuffmanEncoder fixedOffsetEncoding() {
        HuffmanEncoder h = new HuffmanEncoder(30);
        for (int ch = 0; ch < h.codes.length; ch++) {
            h.codes[ch] = hcode(reverseBits(ch, 5), 5);
        }
        return h;
    }

    /** The number of bits {@code freq} costs in this code. */
    int bitLength(int[] freq) {
        int total = 0;
        for (int i = 0; i < freq.length; i++) {
            int f = freq[i];
            if (f != 0) {
                total += f * length(codes[i]);
            }
        }
        return total;
    }

    /**
     * Makes this the minimum code for {@code freq} (one entry per symbol, the whole array) with no
     * code longer than {@code maxBits}.
     */
    void generate(int[] freq, int maxBits) {
        long[] list = freqCache;
        int count = 0;
        for (int i = 0; i < freq.length; i++) {
            int f = freq[i];
            if (f != 0) {
                list[count++] = ((long) f << 16) | i;
            } else {
                codes[i] &= 0xFFFF;
            }
        }
        if (count <= 2) {
            // With two or fewer literals everything has bit length 1, in literal order.
            for (int i = 0; i < count; i++) {
                codes[(int) list[i] & 0xFFFF] = hcode(i, 1);
            }
            return;
        }
        Arrays.sort(list, 0, count);
        int levels = bitCounts(list, count, maxBits);
        assignEncodingAndSize(levels, list, count);
    }

    /**
     * Go's {@code bitCounts}: fills {@link #bitCount}[1..maxBits] with the number of literals coded
     * in that many bits and returns the (possibly reduced) maxBits plus one. {@code list} holds
     * {@code n >= 3} nodes in increasing frequency.
     */
    private int bitCounts(long[] list, int n, int maxBits) {
        list[n] = MAX_NODE;
        if (maxBits > n - 1) {
            maxBits = n - 1;
        }
        Arrays.fill(lastFreq, 0);
        Arrays.fill(nextCharFreq, 0);
        Arrays.fill(nextPairFreq, 0);
        Arrays.fill(needed, 0);
        Arrays.fill(leafCounts, 0);
        for (int level = 1; level <= maxBits; level++) {
            lastFreq[level] = freq(list[1]);
            nextCharFreq[level] = freq(list[2]);
            nextPairFreq[level] = level == 1 ? Integer.MAX_VALUE : freq(list[0]) + freq(list[1]);
            leafCounts[level * MAX_BITS_LIMIT + level] = 2;
        }
        needed[maxBits] = 2 * n - 4;

        int level = maxBits;
        while (true) {
            if (nextPairFreq[level] == Integer.MAX_VALUE && nextCharFreq[level] == Integer.MAX_VALUE) {
                // Out of both leaves and pairs: never come back to this level or any lower one.
                needed[level] = 0;
                nextPairFreq[level + 1] = Integer.MAX_VALUE;
                level++;
                continue;
            }
            int prevFreq = lastFreq[level];
            int row = level * MAX_BITS_LIMIT;
            if (nextCharFreq[level] < nextPairFreq[level]) {
                int next = leafCounts[row + level] + 1;
                lastFreq[level] = nextCharFreq[level];
                leafCounts[row + level] = next;
                nextCharFreq[level] = freq(list[next]);
            } else {
                lastFreq[level] = nextPairFreq[level];
                // Take the leaf counts from the level below, except this level's own.
                for (int j = 0; j < level; j++) {
                    leafCounts[row + j] = leafCounts[row - MAX_BITS_LIMIT + j];
                }
                needed[level - 1] = 2;
            }
            if (--needed[level] == 0) {
                if (level == maxBits) {
                    break;
                }
                nextPairFreq[level + 1] = prevFreq + lastFreq[level];
                level++;
            } else {
                while (needed[level - 1] > 0) {
                    level--;
                }
            }
        }
        int top = maxBits * MAX_BITS_LIMIT;
        if (leafCounts[top + maxBits] != n) {
            throw new IllegalStateException("leafCounts[maxBits][maxBits] != n");
        }
        int bits = 1;
        for (level = maxBits; level > 0; level--) {
            bitCount[bits] = leafCounts[top + level] - leafCounts[top + level - 1];
            bits++;
        }
        return maxBits + 1;
    }

    private static int freq(long node) {
        return (int) (node >>> 16);
    }

    /** RFC 1951 3.2.2: codes of one length are assigned in literal order. */
    private void assignEncodingAndSize(int levels, long[] list, int listLength) {
        int code = 0;
        for (int n = 0; n < levels; n++) {
            code = (code << 1) & 0xFFFF;
            int bits = bitCount[n];
            if (n == 0 || bits == 0) {
                continue;
            }
            int chunkStart = listLength - bits;
            for (int i = 0; i < bits; i++) {
                chunkLiterals[i] = (int) list[chunkStart + i] & 0xFFFF;
            }
            Arrays.sort(chunkLiterals, 0, bits);
            for (int i = 0; i < bits; i++) {
                codes[chunkLiterals[i]] = hcode(reverseBits(code, n), n);
                code = (code + 1) & 0xFFFF;
            }
            listLength = chunkStart;
        }
    }

    static int reverseBits(int number, int bitLength) {
        return Integer.reverse(((number << (16 - bitLength)) & 0xFFFF) << 16);
    }
}
