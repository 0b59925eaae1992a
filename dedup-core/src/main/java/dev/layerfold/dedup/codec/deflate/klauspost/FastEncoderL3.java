package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 3: a medium table of 5-byte hashes, two candidates per entry ({@code level3.go}). */
final class FastEncoderL3 extends FastEncoder {

    private static final int BITS = 16;
    private final int[] tableCur = new int[1 << BITS];
    private final int[] tablePrev = new int[1 << BITS];

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
            int candidate;
            while (true) {
                int nextHash = hash5(cv, BITS);
                s = nextS;
                nextS = s + 1 + ((s - nextEmit) >> 7);
                if (nextS > sLimit) {
                    break search;
                }
                int candCur = tableCur[nextHash];
                int candPrev = tablePrev[nextHash];
                long now = load64(src, nextS);
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
                    if (t + 8 < histLen && t > 0) {
                        put(hash5(load64(src, t), BITS), cur + t);
                    }
                    break search;
                }
                for (int i = s - l + 2; i < s - 5; i += 6) {
                    put(hash5(load64(src, i), BITS), cur + i);
                }
                long x = load64(src, s - 2);
                put(hash5(x, BITS), cur + s - 2);
                x >>>= 8;
                put(hash5(x, BITS), cur + s - 1);
                x >>>= 8;
                int currHash = hash5(x, BITS);
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
