package dev.layerfold.dedup.codec.deflate.klauspost;

import java.util.Arrays;

/** Level 1: one small table of 5-byte hashes (4 before klauspost/compress 1.15.11), sparse indexing ({@code level1.go}). */
final class FastEncoderL1 extends FastEncoder {

    private final int[] table = new int[TABLE_SIZE];
    private final boolean hashesFourBytes;

    /** See {@link FlateRelease#fastLevelsHashFourBytes}. */
    FastEncoderL1(boolean hashesFourBytes) {
        this.hashesFourBytes = hashesFourBytes;
    }

    /** Up to klauspost/compress 1.15.10 Snappy's hash of 4 bytes ({@code fast_encoder.go}'s {@code hash}), since 1.15.11 of 5. */
    private int hash(long u) {
        return hashesFourBytes ? ((int) u * 0x1e35a7bd) >>> (32 - TABLE_BITS) : hash5(u, TABLE_BITS);
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
            int nextS;
            int t;
            while (true) {
                int nextHash = hash(cv);
                int candidate = table[nextHash];
                nextS = s + 2 + ((s - nextEmit) >> 5);
                if (nextS > sLimit) {
                    break search;
                }
                long now = load64(src, nextS);
                table[nextHash] = s + cur;
                nextHash = hash(now);
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
                    // Go indexes it only where its load (4 bytes up to 1.15.10, since then 8) is within the input.
                    if (s + l + (hashesFourBytes ? 4 : 8) < histLen) {
                        table[hash(load64(src, s))] = s + cur;
                    }
                    break search;
                }
                long x = load64(src, s - 2);
                int o = cur + s - 2;
                table[hash(x)] = o;
                x >>>= 16;
                int currHash = hash(x);
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
