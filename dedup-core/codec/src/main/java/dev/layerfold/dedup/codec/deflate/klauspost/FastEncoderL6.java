package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/**
 * Level 6 (and the default level): level 5's tables plus a check of the last match's offset and
 * fuller indexing ({@code level6.go}).
 */
final class FastEncoderL6 extends FastEncoder {

    private final int[] table = new int[TABLE_SIZE];
    private final int[] bCur = new int[TABLE_SIZE];
    private final int[] bPrev = new int[TABLE_SIZE];
    /** Where the long candidate at a match's end is tried, past the match's start; see {@link FlateRelease#longerMatchTriedFromMatchStart}. */
    private final int skipBeginning;

    FastEncoderL6(boolean longerMatchTriedFromMatchStart) {
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
            if (bCur[i] <= minOff) {
                bCur[i] = 0;
                bPrev[i] = 0;
            } else {
                bCur[i] = shifted(bCur[i], minOff);
                bPrev[i] = shifted(bPrev[i], minOff);
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
        int repeat = 1;
        search:
        while (true) {
            int nextS = s;
            int l = 0;
            int t;
            while (true) {
                int nextHashS = hash4(cv, TABLE_BITS);
                int nextHashL = hash7(cv, TABLE_BITS);
                s = nextS;
                nextS = s + 1 + ((s - nextEmit) >> 7);
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
                    int t2 = s - repeat + 1;
                    if (load32(src, t2) == (int) (cv >>> 8)) {
                        int ml = matchLenLimited(s + 5, t2 + 4) + 4;
                        if (ml > l) {
                            t = t2;
                            l = ml;
                            s += 1;
                            break;
                        }
                    }
                    t2 = lCandCur - cur;
                    if (nextS - t2 < MAX_MATCH_OFFSET) {
                        if (load32(src, t2) == (int) next) {
                            int ml = matchLenLimited(nextS + 4, t2 + 4) + 4;
                            if (ml > l) {
                                t = t2;
                                s = nextS;
                                l = ml;
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
            if (sAt < sLimit) {
                int hash = hash7(load64(src, sAt), TABLE_BITS);
                int t2 = bCur[hash] - cur - l + skipBeginning;
                int s2 = s + skipBeginning;
                int off = s2 - t2;
                if (off < MAX_MATCH_OFFSET) {
                    if (off > 0 && t2 >= 0) {
                        int l2 = matchLenLong(s2, t2);
                        if (l2 > l) {
                            t = t2;
                            l = l2;
                            s = s2;
                        }
                    }
                    t2 = bPrev[hash] - cur - l + skipBeginning;
                    off = s2 - t2;
                    if (off > 0 && off < MAX_MATCH_OFFSET && t2 >= 0) {
                        int l2 = matchLenLong(s2, t2);
                        if (l2 > l) {
                            t = t2;
                            l = l2;
                            s = s2;
                        }
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
            repeat = s - t;
            s += l;
            nextEmit = s;
            if (nextS >= s) {
                s = nextS + 1;
            }
            if (s >= sLimit) {
                for (int i = nextS + 1; i < histLen - 8; i += 2) {
                    long x = load64(src, i);
                    table[hash4(x, TABLE_BITS)] = i + cur;
                    putLong(hash7(x, TABLE_BITS), i + cur);
                }
                break;
            }
            for (int i = nextS + 1; i < s - 1; i += 2) {
                long x = load64(src, i);
                int e = i + cur;
                int hashL = hash7(x, TABLE_BITS);
                int hashL2 = hash7(x >>> 8, TABLE_BITS);
                table[hash4(x, TABLE_BITS)] = e;
                putLong(hashL, e);
                putLong(hashL2, e + 1);
            }
            cv = load64(src, s);
        }
        emitRemainder(dst, nextEmit);
    }
}
