package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.BASE_DIST;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.BASE_LENGTH;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.BL_CODES;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.BL_ORDER;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.D_CODES;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.END_BLOCK;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.EXTRA_BLBITS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.EXTRA_DBITS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.EXTRA_LBITS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.HEAP_SIZE;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.LENGTH_CODE;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.LITERALS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.L_CODES;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.MAX_BITS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.MAX_BL_BITS;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.REPZ_11_138;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.REPZ_3_10;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.REP_3_6;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.STATIC_DTREE_CODE;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.STATIC_DTREE_LEN;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.STATIC_LTREE_CODE;
import static dev.layerfold.dedup.codec.deflate.zlib.TreeTables.STATIC_LTREE_LEN;

import dev.layerfold.dedup.codec.deflate.TokenObserver;

import java.util.Arrays;

/**
 * Port of trees.c: the symbol buffer (zlib 1.2.12+'s {@code sym_buf}), the Huffman tree construction
 * and the block emitters. Trees keep zlib's two unions as two arrays each: {@code fc} is Freq, later
 * overwritten by Code, and {@code dl} is Dad, later overwritten by Len; the overwrite order matters
 * for tie-breaking, so it is kept. detect_data_type() is left out: it only fills in strm->data_type
 * and never changes the output.
 */
final class Trees {

    private static final int STORED_BLOCK = 0;
    private static final int STATIC_TREES = 1;
    private static final int DYN_TREES = 2;
    private static final int SMALLEST = 1;

    /** One tree_desc: the dynamic tree and its static description. */
    private static final class Desc {
        final int[] fc;
        final int[] dl;
        final int[] staticLen;
        final int[] extraBits;
        final int extraBase;
        final int elems;
        final int maxLength;
        int maxCode;

        Desc(int size, int[] staticLen, int[] extraBits, int extraBase, int elems, int maxLength) {
            this.fc = new int[size];
            this.dl = new int[size];
            this.staticLen = staticLen;
            this.extraBits = extraBits;
            this.extraBase = extraBase;
            this.elems = elems;
            this.maxLength = maxLength;
        }
    }

    private final PendingOutput out;
    /** Told each symbol as it is tallied, or null. */
    private TokenObserver observer;
    private final Desc lDesc = new Desc(HEAP_SIZE, STATIC_LTREE_LEN, EXTRA_LBITS, LITERALS + 1, L_CODES, MAX_BITS);
    private final Desc dDesc = new Desc(2 * D_CODES + 1, STATIC_DTREE_LEN, EXTRA_DBITS, 0, D_CODES, MAX_BITS);
    private final Desc blDesc = new Desc(2 * BL_CODES + 1, null, EXTRA_BLBITS, 0, BL_CODES, MAX_BL_BITS);
    private final int[] ltreeFreq = lDesc.fc;
    private final int[] dtreeFreq = dDesc.fc;

    private final int[] blCount = new int[MAX_BITS + 1];
    private final int[] heap = new int[2 * L_CODES + 1];
    private final int[] depth = new int[2 * L_CODES + 1];
    private int heapLen;
    private int heapMax;
    private long optLen;
    private long staticLen;

    /** sym_buf: one int per symbol, distance (0 for a literal) above the literal or length-3 byte. */
    private final int[] syms;
    private final int symEnd;
    private int symNext;

    Trees(PendingOutput out, int litBufsize) {
        this.out = out;
        this.syms = new int[litBufsize];
        this.symEnd = litBufsize - 1;
        initBlock();
    }

    /** _tr_init(). */
    void init() {
        out.reset();
        initBlock();
    }

    private void initBlock() {
        Arrays.fill(ltreeFreq, 0, L_CODES, 0);
        Arrays.fill(dtreeFreq, 0, D_CODES, 0);
        Arrays.fill(blDesc.fc, 0, BL_CODES, 0);
        ltreeFreq[END_BLOCK] = 1;
        optLen = 0;
        staticLen = 0;
        symNext = 0;
    }

    boolean hasSymbols() {
        return symNext != 0;
    }

    /** Whether the block under way holds the same symbols as {@code other}'s. */
    boolean sameSymbols(Trees other) {
        return Arrays.equals(syms, 0, symNext, other.syms, 0, other.symNext);
    }

    void observeTokens(TokenObserver observer) {
        this.observer = observer;
    }

    /** _tr_tally_lit(): returns true when the block must be flushed. */
    boolean tallyLit(int c) {
        if (observer != null) {
            observer.literal(c);
        }
        syms[symNext++] = c;
        ltreeFreq[c]++;
        return symNext == symEnd;
    }

    /** _tr_tally_dist(): {@code dist} is the match distance, {@code lc} the match length minus 3. */
    boolean tallyDist(int dist, int lc) {
        if (observer != null) {
            observer.match(lc + 3, dist);
        }
        syms[symNext++] = (dist << 8) | lc;
        ltreeFreq[LENGTH_CODE[lc] + LITERALS + 1]++;
        dtreeFreq[TreeTables.distCode(dist - 1)]++;
        return symNext == symEnd;
    }

    /**
     * GNU gzip's guess in {@code ct_tally()} (levels above 2, every 4096 symbols) that ending the
     * block here pays: under half the symbols are matches and an upper bound of their coded size is
     * under half of the {@code inLength} input bytes the block covers. zlib dropped this guess.
     */
    boolean gnuGzipWouldEndBlock(long inLength) {
        if ((symNext & 0xfff) != 0) {
            return false;
        }
        long outLength = (long) symNext * 8;
        int lastDist = 0;
        for (int dcode = 0; dcode < D_CODES; dcode++) {
            outLength += (long) dtreeFreq[dcode] * (5 + EXTRA_DBITS[dcode]);
            lastDist += dtreeFreq[dcode];
        }
        outLength >>>= 3;
        return lastDist < symNext / 2 && outLength < inLength / 2;
    }

    /** _tr_stored_block(). */
    void storedBlock(byte[] buf, int offset, int storedLen, boolean last) {
        out.sendBits((STORED_BLOCK << 1) + (last ? 1 : 0), 3);
        out.windup();
        out.putShort(storedLen);
        out.putShort(~storedLen & 0xffff);
        if (storedLen > 0) {
            out.putBytes(buf, offset, storedLen);
        }
    }

    /** _tr_align(): an empty static block, for Z_PARTIAL_FLUSH. */
    void align() {
        out.sendBits(STATIC_TREES << 1, 3);
        out.sendBits(STATIC_LTREE_CODE[END_BLOCK], STATIC_LTREE_LEN[END_BLOCK]);
        out.flushBits();
    }

    /**
     * _tr_flush_block(): picks stored, fixed or dynamic for the buffered symbols. {@code buf} is null
     * when the block's input is no longer all in the window (zlib's block_start &lt; 0).
     */
    void flushBlock(int level, ZlibStrategy strategy, byte[] buf, int offset, int storedLen, boolean last) {
        long optLenb;
        long staticLenb;
        int maxBlindex = 0;
        if (level > 0) {
            buildTree(lDesc);
            buildTree(dDesc);
            maxBlindex = buildBlTree();
            optLenb = (optLen + 3 + 7) >>> 3;
            staticLenb = (staticLen + 3 + 7) >>> 3;
            // zlib 1.2.12 made Z_FIXED take part in the stored-versus-fixed choice.
            if (staticLenb <= optLenb || strategy == ZlibStrategy.FIXED) {
                optLenb = staticLenb;
            }
        } else {
            optLenb = staticLenb = storedLen + 5L;
        }

        if (storedLen + 4L <= optLenb && buf != null) {
            storedBlock(buf, offset, storedLen, last);
        } else if (staticLenb == optLenb) {
            out.sendBits((STATIC_TREES << 1) + (last ? 1 : 0), 3);
            compressBlock(STATIC_LTREE_CODE, STATIC_LTREE_LEN, STATIC_DTREE_CODE, STATIC_DTREE_LEN);
        } else {
            out.sendBits((DYN_TREES << 1) + (last ? 1 : 0), 3);
            sendAllTrees(lDesc.maxCode + 1, dDesc.maxCode + 1, maxBlindex + 1);
            compressBlock(lDesc.fc, lDesc.dl, dDesc.fc, dDesc.dl);
        }
        initBlock();
        if (last) {
            out.windup();
        }
    }

    /** compress_block(). */
    private void compressBlock(int[] lcode, int[] llen, int[] dcode, int[] dlen) {
        PendingOutput o = out;
        int[] s = syms;
        for (int sx = 0, end = symNext; sx < end; sx++) {
            int sym = s[sx];
            int dist = sym >>> 8;
            int lc = sym & 0xff;
            if (dist == 0) {
                o.sendBits(lcode[lc], llen[lc]);
            } else {
                int code = LENGTH_CODE[lc];
                o.sendBits(lcode[code + LITERALS + 1], llen[code + LITERALS + 1]);
                int extra = EXTRA_LBITS[code];
                if (extra != 0) {
                    o.sendBits(lc - BASE_LENGTH[code], extra);
                }
                dist--;
                code = TreeTables.distCode(dist);
                o.sendBits(dcode[code], dlen[code]);
                extra = EXTRA_DBITS[code];
                if (extra != 0) {
                    o.sendBits(dist - BASE_DIST[code], extra);
                }
            }
        }
        o.sendBits(lcode[END_BLOCK], llen[END_BLOCK]);
    }

    /** smaller(): frequency, then depth, breaks ties. */
    private boolean smaller(int[] fc, int n, int m) {
        return fc[n] < fc[m] || (fc[n] == fc[m] && depth[n] <= depth[m]);
    }

    /** pqdownheap(). */
    private void pqdownheap(int[] fc, int k) {
        int v = heap[k];
        int j = k << 1;
        while (j <= heapLen) {
            if (j < heapLen && smaller(fc, heap[j + 1], heap[j])) {
                j++;
            }
            if (smaller(fc, v, heap[j])) {
                break;
            }
            heap[k] = heap[j];
            k = j;
            j <<= 1;
        }
        heap[k] = v;
    }

    /** build_tree(). */
    private void buildTree(Desc desc) {
        int[] fc = desc.fc;
        int[] dl = desc.dl;
        int elems = desc.elems;
        int maxCode = -1;

        heapLen = 0;
        heapMax = HEAP_SIZE;
        for (int n = 0; n < elems; n++) {
            if (fc[n] != 0) {
                heap[++heapLen] = maxCode = n;
                depth[n] = 0;
            } else {
                dl[n] = 0;
            }
        }
        // The format needs at least one distance code; force two codes of non-zero frequency.
        while (heapLen < 2) {
            int node = heap[++heapLen] = maxCode < 2 ? ++maxCode : 0;
            fc[node] = 1;
            depth[node] = 0;
            optLen--;
            if (desc.staticLen != null) {
                staticLen -= desc.staticLen[node];
            }
        }
        desc.maxCode = maxCode;

        for (int n = heapLen / 2; n >= 1; n--) {
            pqdownheap(fc, n);
        }

        int node = elems;
        do {
            int n = heap[SMALLEST];
            heap[SMALLEST] = heap[heapLen--];
            pqdownheap(fc, SMALLEST);
            int m = heap[SMALLEST];

            heap[--heapMax] = n;
            heap[--heapMax] = m;

            fc[node] = fc[n] + fc[m];
            depth[node] = Math.max(depth[n], depth[m]) + 1;
            dl[n] = dl[m] = node;

            heap[SMALLEST] = node++;
            pqdownheap(fc, SMALLEST);
        } while (heapLen >= 2);

        heap[--heapMax] = heap[SMALLEST];

        genBitlen(desc);
        // The codes overwrite the frequencies, as zlib's union does.
        TreeTables.genCodes(fc, dl, maxCode, blCount);
    }

    /** gen_bitlen(): code lengths from the tree, with zlib's overflow repair. */
    private void genBitlen(Desc desc) {
        int[] fc = desc.fc;
        int[] dl = desc.dl;
        int maxCode = desc.maxCode;
        int[] stree = desc.staticLen;
        int[] extra = desc.extraBits;
        int base = desc.extraBase;
        int maxLength = desc.maxLength;
        int overflow = 0;

        Arrays.fill(blCount, 0);

        dl[heap[heapMax]] = 0;

        int h;
        for (h = heapMax + 1; h < HEAP_SIZE; h++) {
            int n = heap[h];
            int bits = dl[dl[n]] + 1;
            if (bits > maxLength) {
                bits = maxLength;
                overflow++;
            }
            dl[n] = bits;
            if (n > maxCode) {
                continue;
            }
            blCount[bits]++;
            int xbits = n >= base ? extra[n - base] : 0;
            long f = fc[n];
            optLen += f * (bits + xbits);
            if (stree != null) {
                staticLen += f * (stree[n] + xbits);
            }
        }
        if (overflow == 0) {
            return;
        }

        do {
            int bits = maxLength - 1;
            while (blCount[bits] == 0) {
                bits--;
            }
            blCount[bits]--;
            blCount[bits + 1] += 2;
            blCount[maxLength]--;
            overflow -= 2;
        } while (overflow > 0);

        for (int bits = maxLength; bits != 0; bits--) {
            int n = blCount[bits];
            while (n != 0) {
                int m = heap[--h];
                if (m > maxCode) {
                    continue;
                }
                if (dl[m] != bits) {
                    optLen += ((long) bits - dl[m]) * fc[m];
                    dl[m] = bits;
                }
                n--;
            }
        }
    }

    /** scan_tree(): counts the bit-length codes that will describe {@code tree}. */
    private void scanTree(int[] dl, int maxCode) {
        int[] blFreq = blDesc.fc;
        int prevlen = -1;
        int nextlen = dl[0];
        int count = 0;
        int maxCount = 7;
        int minCount = 4;
        if (nextlen == 0) {
            maxCount = 138;
            minCount = 3;
        }
        dl[maxCode + 1] = 0xffff;

        for (int n = 0; n <= maxCode; n++) {
            int curlen = nextlen;
            nextlen = dl[n + 1];
            if (++count < maxCount && curlen == nextlen) {
                continue;
            } else if (count < minCount) {
                blFreq[curlen] += count;
            } else if (curlen != 0) {
                if (curlen != prevlen) {
                    blFreq[curlen]++;
                }
                blFreq[REP_3_6]++;
            } else if (count <= 10) {
                blFreq[REPZ_3_10]++;
            } else {
                blFreq[REPZ_11_138]++;
            }
            count = 0;
            prevlen = curlen;
            if (nextlen == 0) {
                maxCount = 138;
                minCount = 3;
            } else if (curlen == nextlen) {
                maxCount = 6;
                minCount = 3;
            } else {
                maxCount = 7;
                minCount = 4;
            }
        }
    }

    /** send_tree(): the run-length coded lengths of {@code tree}; scan_tree() set the guard. */
    private void sendTree(int[] dl, int maxCode) {
        int[] blCode = blDesc.fc;
        int[] blLen = blDesc.dl;
        int prevlen = -1;
        int nextlen = dl[0];
        int count = 0;
        int maxCount = 7;
        int minCount = 4;
        if (nextlen == 0) {
            maxCount = 138;
            minCount = 3;
        }

        for (int n = 0; n <= maxCode; n++) {
            int curlen = nextlen;
            nextlen = dl[n + 1];
            if (++count < maxCount && curlen == nextlen) {
                continue;
            } else if (count < minCount) {
                do {
                    out.sendBits(blCode[curlen], blLen[curlen]);
                } while (--count != 0);
            } else if (curlen != 0) {
                if (curlen != prevlen) {
                    out.sendBits(blCode[curlen], blLen[curlen]);
                    count--;
                }
                out.sendBits(blCode[REP_3_6], blLen[REP_3_6]);
                out.sendBits(count - 3, 2);
            } else if (count <= 10) {
                out.sendBits(blCode[REPZ_3_10], blLen[REPZ_3_10]);
                out.sendBits(count - 3, 3);
            } else {
                out.sendBits(blCode[REPZ_11_138], blLen[REPZ_11_138]);
                out.sendBits(count - 11, 7);
            }
            count = 0;
            prevlen = curlen;
            if (nextlen == 0) {
                maxCount = 138;
                minCount = 3;
            } else if (curlen == nextlen) {
                maxCount = 6;
                minCount = 3;
            } else {
                maxCount = 7;
                minCount = 4;
            }
        }
    }

    /** build_bl_tree(): returns the index in BL_ORDER of the last bit-length code to send. */
    private int buildBlTree() {
        scanTree(lDesc.dl, lDesc.maxCode);
        scanTree(dDesc.dl, dDesc.maxCode);
        buildTree(blDesc);
        int maxBlindex;
        for (maxBlindex = BL_CODES - 1; maxBlindex >= 3; maxBlindex--) {
            if (blDesc.dl[BL_ORDER[maxBlindex]] != 0) {
                break;
            }
        }
        optLen += 3 * ((long) maxBlindex + 1) + 5 + 5 + 4;
        return maxBlindex;
    }

    /** send_all_trees(). */
    private void sendAllTrees(int lcodes, int dcodes, int blcodes) {
        out.sendBits(lcodes - 257, 5);
        out.sendBits(dcodes - 1, 5);
        out.sendBits(blcodes - 4, 4);
        for (int rank = 0; rank < blcodes; rank++) {
            out.sendBits(blDesc.dl[BL_ORDER[rank]], 3);
        }
        sendTree(lDesc.dl, lcodes - 1);
        sendTree(dDesc.dl, dcodes - 1);
    }
}
