package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 1: one small table of 5-byte hashes, sparse indexing ({@code level1.go}). */
final class FastEncoderL1 extends FastEncoder {

    private final int[] table = new int[TABLE_SIZE];

    @Override
    int[][] tables() {
        return new int[][] {table};
    }

    @Override
    void clearTables() {
        Arrays.fill(table, 0);
    }

    @Override
    void shiftTables(int minOff) {
        for (int i = 0; i < table.length; i++) {
            table[i] = shifted(table[i], minOff);
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
            int nextS;
            int t;
            while (true) {
                int nextHash = hash5(cv, TABLE_BITS);
                int candidate = table[nextHash];
                nextS = s + 2 + ((s - nextEmit) >> 5);
                if (nextS > sLimit) {
                    break search;
                }
                long now = load64(src, nextS);
                table[nextHash] = s + cur;
                nextHash = hash5(now, TABLE_BITS);
                t = candidate - cur;
                if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                    table[nextHash] = nextS + cur;
                    break;
                }
                cv = now;
                s = nextS;
                nextS++;
                candidate = table[nextHash];
                now >>>= 8;
                table[nextHash] = s + cur;
                t = candidate - cur;
                if (s - t < MAX_MATCH_OFFSET && (int) cv == load32(src, t)) {
                    table[nextHash] = nextS + cur;
                    break;
                }
                cv = now;
                s = nextS;
            }
            while (true) {
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
                    if (s + l + 8 < histLen) {
                        table[hash5(load64(src, s), TABLE_BITS)] = s + cur;
                    }
                    break search;
                }
                long x = load64(src, s - 2);
                int o = cur + s - 2;
                table[hash5(x, TABLE_BITS)] = o;
                x >>>= 16;
                int currHash = hash5(x, TABLE_BITS);
                int candidate = table[currHash];
                table[currHash] = o + 2;
                t = candidate - cur;
                if (s - t > MAX_MATCH_OFFSET || (int) x != load32(src, t)) {
                    cv = x >>> 8;
                    s++;
                    break;
                }
            }
        }
        emitRemainder(dst, nextEmit);
    }
}
