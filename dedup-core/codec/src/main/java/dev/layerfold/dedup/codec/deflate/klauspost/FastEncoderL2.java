package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 2: like level 1 with a larger table, indexing about every second byte ({@code level2.go}). */
final class FastEncoderL2 extends FastEncoder {

    private static final int BITS = 17;
    private final int[] table = new int[1 << BITS];
    private final boolean hashesFourBytes;

    /** See {@link FlateRelease#fastLevelsHashFourBytes}. */
    FastEncoderL2(boolean hashesFourBytes) {
        this.hashesFourBytes = hashesFourBytes;
    }

    /** Up to klauspost/compress 1.15.10 a hash of 4 bytes, since 1.15.11 of 5. */
    private int hash(long u) {
        return hashesFourBytes ? hash4(u, BITS) : hash5(u, BITS);
    }

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
            int nextS = s;
            int candidate;
            while (true) {
                int nextHash = hash(cv);
                s = nextS;
                nextS = s + 2 + ((s - nextEmit) >> 5);
                if (nextS > sLimit) {
                    break search;
                }
                candidate = table[nextHash];
                long now = load64(src, nextS);
                table[nextHash] = s + cur;
                nextHash = hash(now);
                int off = s - (candidate - cur);
                if (off < MAX_MATCH_OFFSET && (int) cv == load32(src, candidate - cur)) {
                    table[nextHash] = nextS + cur;
                    break;
                }
                cv = now;
                s = nextS;
                nextS++;
                candidate = table[nextHash];
                now >>>= 8;
                table[nextHash] = s + cur;
                off = s - (candidate - cur);
                if (off < MAX_MATCH_OFFSET && (int) cv == load32(src, candidate - cur)) {
                    break;
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
                    // Go indexes it only where its load (4 bytes up to 1.15.10, since then 8) is within the input.
                    if (s + l + (hashesFourBytes ? 4 : 8) < histLen) {
                        table[hash(load64(src, s))] = s + cur;
                    }
                    break search;
                }
                for (int i = s - l + 2; i < s - 5; i += 7) {
                    long x = load64(src, i);
                    table[hash(x)] = cur + i;
                    x >>>= 16;
                    table[hash(x)] = cur + i + 2;
                    x >>>= 16;
                    table[hash(x)] = cur + i + 4;
                }
                long x = load64(src, s - 2);
                int o = cur + s - 2;
                int prevHash = hash(x);
                int prevHash2 = hash(x >>> 8);
                table[prevHash] = o;
                table[prevHash2] = o + 1;
                int currHash = hash(x >>> 16);
                candidate = table[currHash];
                table[currHash] = o + 2;
                int off = s - (candidate - cur);
                if (off > MAX_MATCH_OFFSET || (int) (x >>> 16) != load32(src, candidate - cur)) {
                    cv = x >>> 24;
                    s++;
                    break;
                }
            }
        }
        emitRemainder(dst, nextEmit);
    }
}
