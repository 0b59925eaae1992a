package dev.layerfold.dedup.codec.deflate.zlib;

/** The constant tables of trees.c and trees.h, built the way tr_static_init() builds them. */
final class TreeTables {

    static final int MAX_BITS = 15;
    static final int MAX_BL_BITS = 7;
    static final int LENGTH_CODES = 29;
    static final int LITERALS = 256;
    static final int END_BLOCK = 256;
    static final int L_CODES = LITERALS + 1 + LENGTH_CODES;
    static final int D_CODES = 30;
    static final int BL_CODES = 19;
    static final int HEAP_SIZE = 2 * L_CODES + 1;
    static final int REP_3_6 = 16;
    static final int REPZ_3_10 = 17;
    static final int REPZ_11_138 = 18;

    static final int[] EXTRA_LBITS = {
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    static final int[] EXTRA_DBITS = {
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
    static final int[] EXTRA_BLBITS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};
    static final int[] BL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

    /** _length_code[]: match length - 3 to length code. */
    static final byte[] LENGTH_CODE = new byte[256];
    /** _dist_code[]: distance - 1 (below 256) or 256 + ((distance - 1) >> 7) to distance code. */
    static final byte[] DIST_CODE = new byte[512];
    static final int[] BASE_LENGTH = new int[LENGTH_CODES];
    static final int[] BASE_DIST = new int[D_CODES];

    /** static_ltree and static_dtree, split into their code and length halves. */
    static final int[] STATIC_LTREE_CODE = new int[L_CODES + 2];
    static final int[] STATIC_LTREE_LEN = new int[L_CODES + 2];
    static final int[] STATIC_DTREE_CODE = new int[D_CODES];
    static final int[] STATIC_DTREE_LEN = new int[D_CODES];

    static {
        int length = 0;
        int code;
        for (code = 0; code < LENGTH_CODES - 1; code++) {
            BASE_LENGTH[code] = length;
            for (int n = 0; n < (1 << EXTRA_LBITS[code]); n++) {
                LENGTH_CODE[length++] = (byte) code;
            }
        }
        // Length 258 has two encodings (284 plus 5 bits, or 285); zlib uses the shorter one.
        LENGTH_CODE[length - 1] = (byte) code;

        int dist = 0;
        for (code = 0; code < 16; code++) {
            BASE_DIST[code] = dist;
            for (int n = 0; n < (1 << EXTRA_DBITS[code]); n++) {
                DIST_CODE[dist++] = (byte) code;
            }
        }
        dist >>= 7;
        for (; code < D_CODES; code++) {
            BASE_DIST[code] = dist << 7;
            for (int n = 0; n < (1 << (EXTRA_DBITS[code] - 7)); n++) {
                DIST_CODE[256 + dist++] = (byte) code;
            }
        }

        int[] blCount = new int[MAX_BITS + 1];
        int n = 0;
        while (n <= 143) {
            STATIC_LTREE_LEN[n++] = 8;
            blCount[8]++;
        }
        while (n <= 255) {
            STATIC_LTREE_LEN[n++] = 9;
            blCount[9]++;
        }
        while (n <= 279) {
            STATIC_LTREE_LEN[n++] = 7;
            blCount[7]++;
        }
        while (n <= 287) {
            STATIC_LTREE_LEN[n++] = 8;
            blCount[8]++;
        }
        genCodes(STATIC_LTREE_CODE, STATIC_LTREE_LEN, L_CODES + 1, blCount);
        for (n = 0; n < D_CODES; n++) {
            STATIC_DTREE_LEN[n] = 5;
            STATIC_DTREE_CODE[n] = biReverse(n, 5);
        }
    }

    private TreeTables() {
    }

    /** d_code(): the distance code of {@code dist}, which is the match distance minus one. */
    static int distCode(int dist) {
        return dist < 256 ? DIST_CODE[dist] : DIST_CODE[256 + (dist >>> 7)];
    }

    /** gen_codes(): canonical Huffman codes from the bit lengths, bit-reversed for sending. */
    static void genCodes(int[] code, int[] len, int maxCode, int[] blCount) {
        int[] nextCode = new int[MAX_BITS + 1];
        int c = 0;
        for (int bits = 1; bits <= MAX_BITS; bits++) {
            c = (c + blCount[bits - 1]) << 1;
            nextCode[bits] = c & 0xffff;
        }
        for (int n = 0; n <= maxCode; n++) {
            int l = len[n];
            if (l != 0) {
                code[n] = biReverse(nextCode[l]++, l);
            }
        }
    }

    /** bi_reverse(). */
    static int biReverse(int code, int len) {
        return Integer.reverse(code) >>> (32 - len);
    }
}
