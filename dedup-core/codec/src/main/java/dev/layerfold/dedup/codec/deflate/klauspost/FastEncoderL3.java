package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 3: a medium table of 5-byte hashes (4 before klauspost/compress 1.15.11), two candidates per entry ({@code level3.go}). */
final class FastEncoderL3 extends FastEncoder {

    private static final int BITS = 16;
    private final int[] tableCur = new int[1 << BITS];
    private final int[] tablePrev = new int[1 << BITS];
    private final boolean hashesFourBytes;
    private final int inputMargin;
    private final int skipLog;
    private final int indexStep;

    /** See {@link FlateRelease#fastLevelsHashFourBytes}: the 4-byte hash came with a smaller margin, faster skipping, denser indexing. */
    FastEncoderL3(boolean hashesFourBytes) {
        this.hashesFourBytes = hashesFourBytes;
        this.inputMargin = hashesFourBytes ? 8 - 1 : INPUT_MARGIN;
        this.skipLog = hashesFourBytes ? 6 : 7;
        this.indexStep = hashesFourBytes ? 5 : 6;
    }

    private int hash(long u) {
        return hashesFourBytes ? hash4(u, BITS) : hash5(u, BITS);
    }

    /** The bytes hashed at {@code i}; only 4 are read where those are all that is hashed, as Go reads them so near the end. */
    private long loadHashed(byte[] src, int i) {
        return hashesFourBytes ? load32(src, i) & 0xFFFFFFFFL : load64(src, i);
    }

    @Override
    int[][] tables() {
        return new int[][] {tableCur, tablePrev};
    }

    @Override
    void clearTables() {
        Arrays.fill(tableCur, 0);
        Arrays.fill(tablePrev, 0);
    }

    @Override
    void shiftTables(int minOff) {
        for (int i = 0; i < tableCur.length; i++) {
            tableCur[i] = shifted(tableCur[i], minOff);
            tablePrev[i] = shifted(tablePrev[i], minOff);
        }
    }

    private void put(int hash, int value) {
        tablePrev[hash] = tableCur[hash];
        tableCur[hash] = value;
    }

    @Override
    void encode(Tokens dst, byte[] in, int offset, int length) {
        int s = prepare(in, offset, length);
        if (length < 1 + 1 + inputMargin) {
            dst.n = length;
            return;
        }
        byte[] src = hist;
        int nextEmit = s;
        int sLimit = histLen - inputMargin;
        long cv = loadHashed(src, s);
        search:
        while (true) {
            int nextS = s;
            int candidate;
            while (true) {
                int nextHash = hash(cv);
                s = nextS;
                nextS = s + 1 + ((s - nextEmit) >> skipLog);
                if (nextS > sLimit) {
                    break search;
                }
                int candCur = tableCur[nextHash];
                int candPrev = tablePrev[nextHash];
                long now = loadHashed(src, nextS);
                int minOffset = cur + s - (MAX_MATCH_OFFSET - 4);
                tablePrev[nextHash] = candCur;
                tableCur[nextHash] = s + cur;
                candidate = candCur;
                if (candidate < minOffset) {
                    cv = now;
                    continue;
                }
                if ((int) cv == load32(src, candidate - cur)) {
                    if (candPrev < minOffset || (int) cv != load32(src, candPrev - cur)) {
                        break;
                    }
                    int off = s - (candidate - cur);
                    int o2 = s - (candPrev - cur);
                    int l1 = matchLen(src, s + 4, histLen, s - off + 4);
                    int l2 = matchLen(src, s + 4, histLen, s - o2 + 4);
                    if (l2 > l1) {
                        candidate = candPrev;
                    }
                    break;
                } else {
                    candidate = candPrev;
                    if (candidate > minOffset && (int) cv == load32(src, candidate - cur)) {
                        break;
                    }
                }
                cv = now;
            }
            while (true) {
                int t = candidate - cur;
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
                    t += l;
                    // Go indexes it only where its load (4 bytes up to 1.15.10, since then 8) is within the input.
                    if (t + (hashesFourBytes ? 4 : 8) < histLen && t > 0) {
                        put(hash(loadHashed(src, t)), cur + t);
                    }
                    break search;
                }
                for (int i = s - l + 2; i < s - 5; i += indexStep) {
                    put(hash(load64(src, i)), cur + i);
                }
                long x = load64(src, s - 2);
                put(hash(x), cur + s - 2);
                x >>>= 8;
                put(hash(x), cur + s - 1);
                x >>>= 8;
                int currHash = hash(x);
                int candCur = tableCur[currHash];
                int candPrev = tablePrev[currHash];
                cv = x;
                tablePrev[currHash] = candCur;
                tableCur[currHash] = s + cur;
                candidate = candCur;
                int minOffset = cur + s - (MAX_MATCH_OFFSET - 4);
                if (candidate > minOffset) {
                    if ((int) cv == load32(src, candidate - cur)) {
                        continue;
                    }
                    candidate = candPrev;
                    if (candidate > minOffset && (int) cv == load32(src, candidate - cur)) {
                        continue;
                    }
                }
                cv = x >>> 8;
                s++;
                break;
            }
        }
        emitRemainder(dst, nextEmit);
    }
}
