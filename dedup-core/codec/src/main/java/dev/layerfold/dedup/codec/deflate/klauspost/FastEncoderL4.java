package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 4: a table of 4-byte and one of 7-byte hashes, one candidate each ({@code level4.go}). */
final class FastEncoderL4 extends FastEncoder {

    private final int[] table = new int[TABLE_SIZE];
    private final int[] bTable = new int[TABLE_SIZE];
    private final boolean measuresNextAtItsPosition;

    /** See {@link FlateRelease#level4MeasuresNextAtItsPosition}. */
    FastEncoderL4(boolean measuresNextAtItsPosition) {
        this.measuresNextAtItsPosition = measuresNextAtItsPosition;
    }

    @Override
    int[][] tables() {
        return new int[][] {table, bTable};
    }

    @Override
    void clearTables() {
        Arrays.fill(table, 0);
        Arrays.fill(bTable, 0);
    }

    @Override
    void shiftTables(int minOff) {
        for (int i = 0; i < TABLE_SIZE; i++) {
            table[i] = shifted(table[i], minOff);
        }
        for (int i = 0; i < TABLE_SIZE; i++) {
            bTable[i] = shifted(bTable[i], minOff);
        }
    }

    @Override
    void encode(Tokens dst, byte[] in, int offset, int length) {
        int s = prepare(in, offset, length);
        if (length < MIN_NON_LITERAL_BLOCK_SIZE) {
            dst.n = length;
            return;
        }
        byte[] src = hist;
        int nextEmit = s;
        int sLimit = histLen - INPUT_MARGIN;
        long cv = load64(src, s);
        search:
        while (true) {
            int nextS = s;
            int t;
            while (true) {
                int nextHashS = hash4(cv, TABLE_BITS);
                int nextHashL = hash7(cv, TABLE_BITS);
                s = nextS;
                nextS = s + 1 + ((s - nextEmit) >> 6);
                if (nextS > sLimit) {
                    break search;
                }
                int sCandidate = table[nextHashS];
                int lCandidate = bTable[nextHashL];
                long next = load64(src, nextS);
                int entry = s + cur;
                table[nextHashS] = entry;
                bTable[nextHashL] = entry;
                t = lCandidate - cur;
                if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                    break;
                }
                t = sCandidate - cur;
                if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                    lCandidate = bTable[hash7(next, TABLE_BITS)];
                    int lOff = lCandidate - cur;
                    if (nextS - lOff < MAX_MATCH_OFFSET && load32(src, lOff) == (int) next) {
                        int l1 = matchLen(src, s + 4, histLen, t + 4);
                        int l2 = matchLen(src, nextS + 4, histLen, (measuresNextAtItsPosition ? lOff : nextS - lOff) + 4);
                        if (l2 > l1) {
                            s = nextS;
                            t = lCandidate - cur;
                        }
                    }
                    break;
                }
                cv = next;
            }
            int l = matchLenLong(s + 4, t + 4) + 4;
            while (t > 0 && s > nextEmit && src[t - 1] == src[s - 1]) {
                s--;
                t--;
                l++;
            }
            dst.addLiterals(src, nextEmit, s);
            dst.addMatchLong(l, s - t - 1);
            s += l;
            nextEmit = s;
            if (nextS >= s) {
                s = nextS + 1;
            }
            if (s >= sLimit) {
                if (s + 8 < histLen) {
                    long x = load64(src, s);
                    table[hash4(x, TABLE_BITS)] = s + cur;
                    bTable[hash7(x, TABLE_BITS)] = s + cur;
                }
                break;
            }
            int i = nextS;
            if (i < s - 1) {
                long x = load64(src, i);
                int e = i + cur;
                bTable[hash7(x, TABLE_BITS)] = e;
                bTable[hash7(x >>> 8, TABLE_BITS)] = e + 1;
                table[hash4(x >>> 8, TABLE_BITS)] = e + 1;
                for (i += 3; i < s - 1; i += 3) {
                    x = load64(src, i);
                    e = i + cur;
                    bTable[hash7(x, TABLE_BITS)] = e;
                    bTable[hash7(x >>> 8, TABLE_BITS)] = e + 1;
                    table[hash4(x >>> 8, TABLE_BITS)] = e + 1;
                }
            }
            long x = load64(src, s - 1);
            int o = cur + s - 1;
            table[hash4(x, TABLE_BITS)] = o;
            bTable[hash7(x, TABLE_BITS)] = o;
            cv = x >>> 8;
        }
        emitRemainder(dst, nextEmit);
    }
}
