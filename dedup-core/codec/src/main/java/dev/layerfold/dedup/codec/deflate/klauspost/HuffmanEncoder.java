package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/**
 * Length-limited canonical Huffman codes from symbol frequencies: Go 1.27's {@code huffmanEncoder}
 * in {@code compress/flate/huffman_code.go}.
 *
 * <p>A code is Go's {@code hcode}: {@code length | reversedCode << 8}, 0 for an unused symbol.
 * Symbols of equal frequency are ordered by value, as Go's sort key does, so the codes are
 * deterministic whatever the sort algorithm.
 */
final class HuffmanEncoder {

    private static final int MAX_BITS_LIMIT = 16;
    private static final int SENTINEL_FREQ = 0xffff;

    final int[] codes;
    private final int[] bitCount = new int[17];
    /** Non-zero symbols as sort keys {@code freq << 10 | symbol}. */
    private final int[] list = new int[Tokens.LITERAL_COUNT + 1];
    private final int[] chunk = new int[Tokens.LITERAL_COUNT + 1];
    private final int[][] leafCounts = new int[MAX_BITS_LIMIT + 1][MAX_BITS_LIMIT + 1];
    private final int[] lastFreq = new int[MAX_BITS_LIMIT + 1];
    private final int[] nextCharFreq = new int[MAX_BITS_LIMIT + 1];
    private final int[] nextPairFreq = new int[MAX_BITS_LIMIT + 1];
    private final int[] needed = new int[MAX_BITS_LIMIT + 1];

    HuffmanEncoder(int size) {
        codes = new int[size];
    }

    static int length(int code) {
        return code & 0xff;
    }

    static int hcode(int code, int length) {
        return length | code << 8;
    }

    static int reverseBits(int x, int bits) {
        return Integer.reverse(x) >>> (32 - bits);
    }

    static HuffmanEncoder fixedLiteral() {
        HuffmanEncoder h = new HuffmanEncoder(Tokens.LITERAL_COUNT);
        for (int ch = 0; ch < Tokens.LITERAL_COUNT; ch++) {
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

    static HuffmanEncoder fixedOffset() {
        HuffmanEncoder h = new HuffmanEncoder(30);
        for (int ch = 0; ch < 30; ch++) {
            h.codes[ch] = hcode(reverseBits(ch, 5), 5);
        }
        return h;
    }

    /** {@code bitLength}: bits to encode {@code freq[0..count)}. */
    int bitLength(int[] freq, int count) {
        int total = 0;
        for (int i = 0; i < count; i++) {
            int f = freq[i];
            if (f != 0) {
                total += f * (codes[i] & 0xff);
            }
        }
        return total;
    }

    /**
     * {@code bitLengthRaw}: bits to encode the bytes, at least {@code floor} per byte: Go 1.27 counts
     * 1 for a byte the code has none for, klauspost/compress 0.
     */
    int bitLengthRaw(byte[] b, int from, int to, int floor) {
        int total = 0;
        for (int i = from; i < to; i++) {
            total += Math.max(floor, codes[b[i] & 0xff] & 0xff);
        }
        return total;
    }

    /** {@code canEncodeLen}: bits to encode {@code freq[0..count)}, or MAX_VALUE if a symbol has no code. */
    int canEncodeLen(int[] freq, int count) {
        int total = 0;
        for (int i = 0; i < count; i++) {
            int f = freq[i];
            if (f != 0) {
                int code = codes[i];
                if (code == 0) {
                    return Integer.MAX_VALUE;
                }
                total += f * (code & 0xff);
            }
        }
        return total;
    }

    /** {@code generate}: the codes for {@code freq[0..size)}, at most {@code maxBits} long. */
    void generate(int[] freq, int size, int maxBits) {
        int count = 0;
        for (int i = 0; i < size; i++) {
            int f = freq[i];
            if (f != 0) {
                list[count++] = f << 10 | i;
            } else {
                codes[i] = 0;
            }
        }
        if (count <= 2) {
            for (int i = 0; i < count; i++) {
                codes[list[i] & 1023] = hcode(i, 1);
            }
            return;
        }
        Arrays.sort(list, 0, count);
        int bits = bitCounts(count, maxBits);
        assignEncodingAndSize(bits, count);
    }

    private int freqAt(int index, int n) {
        return index == n ? SENTINEL_FREQ : list[index] >>> 10;
    }

    /** Go's {@code bitCounts}; returns maxBits after Go's clamp to n - 1 (bitCount[1..maxBits] set). */
    private int bitCounts(int n, int maxBits) {
        if (maxBits > n - 1) {
            maxBits = n - 1;
        }
        for (int[] row : leafCounts) {
            Arrays.fill(row, 0);
        }
        Arrays.fill(needed, 0);
        Arrays.fill(lastFreq, 0);
        Arrays.fill(nextCharFreq, 0);
        Arrays.fill(nextPairFreq, 0);
        for (int level = 1; level <= maxBits; level++) {
            lastFreq[level] = freqAt(1, n);
            nextCharFreq[level] = freqAt(2, n);
            nextPairFreq[level] = freqAt(0, n) + freqAt(1, n);
            leafCounts[level][level] = 2;
            if (level == 1) {
                nextPairFreq[level] = Integer.MAX_VALUE;
            }
        }
        needed[maxBits] = 2 * n - 4;
        int level = maxBits;
        while (level < 16) {
            if (nextPairFreq[level] == Integer.MAX_VALUE && nextCharFreq[level] == Integer.MAX_VALUE) {
                needed[level] = 0;
                nextPairFreq[level + 1] = Integer.MAX_VALUE;
                level++;
                continue;
            }
            int prevFreq = lastFreq[level];
            if (nextCharFreq[level] < nextPairFreq[level]) {
                int next = leafCounts[level][level] + 1;
                lastFreq[level] = nextCharFreq[level];
                leafCounts[level][level] = next;
                nextCharFreq[level] = next == n ? Integer.MAX_VALUE : list[next] >>> 10;
            } else {
                lastFreq[level] = nextPairFreq[level];
                int save = leafCounts[level][level];
                System.arraycopy(leafCounts[level - 1], 0, leafCounts[level], 0, MAX_BITS_LIMIT + 1);
                leafCounts[level][level] = save;
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
        if (leafCounts[maxBits][maxBits] != n) {
            throw new IllegalStateException("leafCounts[maxBits][maxBits] != n");
        }
        int bits = 1;
        int[] counts = leafCounts[maxBits];
        for (int lv = maxBits; lv > 0; lv--) {
            bitCount[bits] = counts[lv] - counts[lv - 1];
            bits++;
        }
        return maxBits;
    }

    private void assignEncodingAndSize(int maxBits, int listLength) {
        int code = 0;
        int end = listLength;
        for (int n = 0; n <= maxBits; n++) {
            code <<= 1;
            int bits = bitCount[n];
            if (n == 0 || bits == 0) {
                continue;
            }
            int from = end - bits;
            for (int i = from; i < end; i++) {
                chunk[i - from] = list[i] & 1023;
            }
            Arrays.sort(chunk, 0, bits);
            for (int i = 0; i < bits; i++) {
                codes[chunk[i]] = hcode(reverseBits(code, n), n);
                code = (code + 1) & 0xffff;
            }
            end = from;
        }
    }
}
