package dev.layerfold.dedup.codec.deflate.klauspost;

/**
 * A block's LZ77 tokens with their histograms, kept as they are added: Go 1.27's {@code tokens}
 * in {@code compress/flate/token.go} (klauspost/compress's {@code tokens}).
 *
 * <p>A token is an {@code int}: a literal is its byte value (256 is the end-of-block marker); a
 * match is {@code MATCH_TYPE | (length - 3) << 22 | offsetCode << 16 | (offset - 1)}. Histogram
 * counters are Go's {@code uint16}s, so they wrap as Go's do.
 */
final class Tokens {

    static final int LENGTH_SHIFT = 22;
    static final int MATCH_TYPE = 1 << 30;
    static final int MATCH_OFFSET_ONLY_MASK = 0xffff;
    static final int END_BLOCK_MARKER = 256;
    static final int LITERAL_COUNT = 286;
    static final int OFFSET_CODE_COUNT = 30;
    static final int BASE_MATCH_LENGTH = 3;

    static final int[] LENGTH_EXTRA_BITS = {
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0, 0, 0, 0,
    };
    static final int[] LENGTH_BASE = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56,
        64, 80, 96, 112, 128, 160, 192, 224, 255, 0, 0, 0,
    };
    static final int[] OFFSET_EXTRA_BITS = {
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14,
    };
    static final int[] OFFSET_BASE = {
        0x000000, 0x000001, 0x000002, 0x000003, 0x000004, 0x000006, 0x000008, 0x00000c, 0x000010, 0x000018,
        0x000020, 0x000030, 0x000040, 0x000060, 0x000080, 0x0000c0, 0x000100, 0x000180, 0x000200, 0x000300,
        0x000400, 0x000600, 0x000800, 0x000c00, 0x001000, 0x001800, 0x002000, 0x003000, 0x004000, 0x006000,
        0x008000, 0x00c000,
    };

    /** {@code lengthCodes}: the length code (0-based) of match length minus 3. */
    static final byte[] LENGTH_CODES = new byte[256];
    private static final byte[] OFFSET_CODES = new byte[256];

    static {
        for (int code = 0; code < 29; code++) {
            int last = code == 28 ? 255 : LENGTH_BASE[code + 1] - 1;
            for (int x = LENGTH_BASE[code]; x <= last; x++) {
                LENGTH_CODES[x] = (byte) code;
            }
        }
        for (int code = 0; code < 16; code++) {
            int last = code == 15 ? 255 : OFFSET_BASE[code + 1] - 1;
            for (int x = OFFSET_BASE[code]; x <= last; x++) {
                OFFSET_CODES[x] = (byte) code;
            }
        }
    }

    /** {@code extraHist}: end-of-block (0) and length codes (1..29), indexed as symbol - 256. */
    final int[] extraHist = new int[32];
    final int[] offHist = new int[32];
    final int[] litHist = new int[256];
    final int[] tokens = new int[65536];
    int n;
    /** See {@link FlateRelease#longMatchesCutAt255}. */
    private final boolean longMatchesCutAt255;

    Tokens(boolean longMatchesCutAt255) {
        this.longMatchesCutAt255 = longMatchesCutAt255;
    }

    static int offsetCode(int xoffset) {
        if (xoffset < 256) {
            return OFFSET_CODES[xoffset];
        }
        return OFFSET_CODES[(xoffset >>> 7) & 0xff] + 14;
    }

    /** {@code Reset}: like Go's, a no-op when no token was added (histograms then stay as they are). */
    void reset() {
        if (n == 0) {
            return;
        }
        n = 0;
        java.util.Arrays.fill(litHist, 0);
        java.util.Arrays.fill(extraHist, 0);
        java.util.Arrays.fill(offHist, 0);
    }

    void addLiteral(int literal) {
        tokens[n] = literal;
        litHist[literal] = (litHist[literal] + 1) & 0xffff;
        n = (n + 1) & 0xffff;
    }

    void addLiterals(byte[] src, int from, int to) {
        for (int i = from; i < to; i++) {
            addLiteral(src[i] & 0xff);
        }
    }

    /** {@code AddMatch}: length minus 3, offset minus 1. */
    void addMatch(int xlength, int xoffset) {
        int oc = offsetCode(xoffset);
        add(xlength, xoffset | oc << 16, oc);
    }

    /** {@code AddMatchLong}: a match of {@code length} (not reduced), possibly over 258, offset minus 1. */
    void addMatchLong(int length, int xoffset) {
        int oc = offsetCode(xoffset);
        int packed = xoffset | oc << 16;
        while (length > 0) {
            int xl = length;
            if (xl > 258) {
                xl = xl > 258 + BASE_MATCH_LENGTH && !longMatchesCutAt255 ? 258 : 258 - BASE_MATCH_LENGTH;
            }
            length -= xl;
            add(xl - BASE_MATCH_LENGTH, packed, oc);
        }
    }

    private void add(int xl, int packedOffset, int oc) {
        int code = (LENGTH_CODES[xl & 0xff] & 0xff) + 1;
        extraHist[code] = (extraHist[code] + 1) & 0xffff;
        offHist[oc & 31] = (offHist[oc & 31] + 1) & 0xffff;
        tokens[n] = MATCH_TYPE | xl << LENGTH_SHIFT | packedOffset;
        n = (n + 1) & 0xffff;
    }

    /**
     * klauspost/compress 1.13.6's {@code Fill}: every literal/length and distance code not used
     * counts once; returns how many literal/length codes that added.
     */
    int fillEveryCode() {
        if (n == 0) {
            return 0;
        }
        int filled = 0;
        for (int i = 0; i < 256; i++) {
            if (litHist[i] == 0) {
                litHist[i] = 1;
                filled++;
            }
        }
        for (int i = 0; i < LITERAL_COUNT - 256; i++) {
            if (extraHist[i] == 0) {
                extraHist[i] = 1;
                filled++;
            }
        }
        for (int i = 0; i < OFFSET_CODE_COUNT; i++) {
            if (offHist[i] == 0) {
                offHist[i] = 1;
            }
        }
        return filled;
    }

    void addEob() {
        tokens[n] = END_BLOCK_MARKER;
        extraHist[0] = (extraHist[0] + 1) & 0xffff;
        n = (n + 1) & 0xffff;
    }

    /**
     * {@code EstimatedBits}: a Shannon estimate of the block's optimal size, in Go's float32
     * arithmetic (Java's float is the same IEEE binary32, evaluated without fused multiply-adds,
     * as Go compiles it for amd64).
     */
    int estimatedBits() {
        return estimatedBits(n);
    }

    /** {@link #estimatedBits()} with {@code total} symbols: up to klauspost/compress 1.13.6 its count of them ({@code nLits}). */
    int estimatedBits(int total) {
        float shannon = 0;
        int bits = 0;
        int nMatches = 0;
        if (total > 0) {
            float invTotal = 1.0f / total;
            for (int v : litHist) {
                if (v > 0) {
                    shannon += symbolBits(v, invTotal);
                }
            }
            shannon += 15;
            for (int i = 1; i < LITERAL_COUNT - 256; i++) {
                int v = extraHist[i];
                if (v > 0) {
                    shannon += symbolBits(v, invTotal);
                    bits += LENGTH_EXTRA_BITS[(i - 1) & 31] * v;
                    nMatches += v;
                }
            }
        }
        if (nMatches > 0) {
            float invTotal = 1.0f / nMatches;
            for (int i = 0; i < OFFSET_CODE_COUNT; i++) {
                int v = offHist[i];
                if (v > 0) {
                    shannon += symbolBits(v, invTotal);
                    bits += OFFSET_EXTRA_BITS[i & 31] * v;
                }
            }
        }
        return (int) shannon + bits;
    }

    private static float symbolBits(int count, float invTotal) {
        float n = count;
        return Math.min(15f, Math.max(1f, -fastLog2(n * invTotal))) * n;
    }

    /** {@code mFastLog2}. */
    private static float fastLog2(float val) {
        int ux = Float.floatToRawIntBits(val);
        float log2 = (float) (((ux >> 23) & 255) - 128);
        ux &= -0x7f800001;
        ux += 127 << 23;
        float uval = Float.intBitsToFloat(ux);
        log2 += ((-0.34484843f) * uval + 2.02466578f) * uval - 0.67487759f;
        return log2;
    }
}
