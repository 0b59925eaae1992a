package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/**
 * Level 5: like level 4 with two candidates per 7-byte hash, and a look at the end of each match
 * for one that reaches further ({@code level5.go}).
 */
final class FastEncoderL5 extends FastEncoder {

    private final int[] table = new int[TABLE_SIZE];
    private final int[] bCur = new int[TABLE_SIZE];
    private final int[] bPrev = new int[TABLE_SIZE];
    /** Where the long candidate at a match's end is tried, past the match's start; see {@link FlateRelease#longerMatchTriedFromMatchStart}. */
    private final int skipBeginning;

    FastEncoderL5(boolean longerMatchTriedFromMatchStart) {
        this.skipBeginning = longerMatchTriedFromMatchStart ? 0 : 2;
    }

    @Override
    int[][] tables() {
        return new int[][] {table, bCur, bPrev};
    }

    @Override
    void clearTables() {
        Arrays.fill(table, 0);
        Arrays.fill(bCur, 0);
        Arrays.fill(bPrev, 0);
    }

    @Override
    void shiftTables(int minOff) {
        for (int i = 0; i < TABLE_SIZE; i++) {
            table[i] = shifted(table[i], minOff);
        }
        shiftLong(bCur, bPrev, minOff);
    }

    /** The long table's shift: a current entry too far back drops its previous one too. */
    final void shiftLong(int[] cur, int[] prev, int minOff) {
        for (int i = 0; i < TABLE_SIZE; i++) {
            if (cur[i] <= minOff) {
                cur[i] = 0;
                prev[i] = 0;
            } else {
                cur[i] = shifted(cur[i], minOff);
                prev[i] = shifted(prev[i], minOff);
            }
        }
    }

    private void putLong(int hash, int value) {
        bPrev[hash] = bCur[hash];
        bCur[hash] = value;
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
            int l = 0;
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
                int lCandCur = bCur[nextHashL];
                int lCandPrev = bPrev[nextHashL];
                long next = load64(src, nextS);
                int entry = s + cur;
                table[nextHashS] = entry;
                putLong(nextHashL, entry);
                nextHashS = hash4(next, TABLE_BITS);
                nextHashL = hash7(next, TABLE_BITS);
                t = lCandCur - cur;
                if (s - t < MAX_MATCH_OFFSET) {
                    if ((int) cv == load32(src, t)) {
                        table[nextHashS] = nextS + cur;
                        putLong(nextHashL, nextS + cur);
                        int t2 = lCandPrev - cur;
                        if (s - t2 < MAX_MATCH_OFFSET && (int) cv == load32(src, t2)) {
                            l = matchLenLimited(s + 4, t + 4) + 4;
                            int ml1 = matchLenLimited(s + 4, t2 + 4) + 4;
                            if (ml1 > l) {
                                t = t2;
                                l = ml1;
                                break;
                            }
                        }
                        break;
                    }
                    t = lCandPrev - cur;
                    if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                        table[nextHashS] = nextS + cur;
                        putLong(nextHashL, nextS + cur);
                        break;
                    }
                }
                t = sCandidate - cur;
                if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                    l = matchLenLimited(s + 4, t + 4) + 4;
                    lCandCur = bCur[nextHashL];
                    lCandPrev = bPrev[nextHashL];
                    table[nextHashS] = nextS + cur;
                    putLong(nextHashL, nextS + cur);
                    int t2 = lCandCur - cur;
                    if (nextS - t2 < MAX_MATCH_OFFSET) {
                        if (load32(src, t2) == (int) next) {
                            int ml = matchLenLimited(nextS + 4, t2 + 4) + 4;
                            if (ml > l) {
                                t = t2;
                                s = nextS;
                                l = ml;
                                break;
                            }
                        }
                        t2 = lCandPrev - cur;
                        if (nextS - t2 < MAX_MATCH_OFFSET && load32(src, t2) == (int) next) {
                            int ml = matchLenLimited(nextS + 4, t2 + 4) + 4;
                            if (ml > l) {
                                t = t2;
                                s = nextS;
                                l = ml;
                                break;
                            }
                        }
                    }
                    break;
                }
                cv = next;
            }
            if (l == 0) {
                l = matchLenLong(s + 4, t + 4) + 4;
            } else if (l == MAX_MATCH_LENGTH) {
                l += matchLenLong(s + l, t + l);
            }
            int sAt = s + l;
            if (l < 30 && sAt < sLimit) {
                int eLong = bCur[hash7(load64(src, sAt), TABLE_BITS)];
                int t2 = eLong - cur - l + skipBeginning;
                int s2 = s + skipBeginning;
                int off = s2 - t2;
                if (t2 >= 0 && off < MAX_MATCH_OFFSET && off > 0) {
                    int l2 = matchLenLong(s2, t2);
                    if (l2 > l) {
                        t = t2;
                        l = l2;
                        s = s2;
                    }
                }
            }
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
                break;
            }
            int i = s - l + 1;
            if (i < s - 1) {
                long x = load64(src, i);
                int e = i + cur;
                table[hash4(x, TABLE_BITS)] = e;
                putLong(hash7(x, TABLE_BITS), e);
                x >>>= 8;
                e++;
                putLong(hash7(x, TABLE_BITS), e);
                x >>>= 8;
                e++;
                table[hash4(x, TABLE_BITS)] = e;
                for (i += 4; i < s - 1; i += 3) {
                    x = load64(src, i);
                    e = i + cur;
                    putLong(hash7(x, TABLE_BITS), e);
                    table[hash4(x >>> 8, TABLE_BITS)] = e + 1;
                }
            }
            long x = load64(src, s - 1);
            int o = cur + s - 1;
            table[hash4(x, TABLE_BITS)] = o;
            putLong(hash7(x, TABLE_BITS), o);
            cv = x >>> 8;
        }
        emitRemainder(dst, nextEmit);
    }
}
