package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * SpeedFastest's match finder, compress 1.18.0's fastEncoder (enc_fast.go, after zstd_fast.c): one
 * table (2^15 entries) hashing 6 bytes, two positions probed per step, the last offset tried first
 * once the block has three sequences, the second offset once right after a match, and the skip
 * growing with the distance since the last match. As in {@link DoubleFastMatcher}, the block's
 * starting recent offsets never reach the output.
 */
final class FastMatcher extends MatchFinder {

    private static final int TABLE_BITS = 15;

    /** The bytes its match tables take on the heap. */
    static long tableBytes() {
        return (long) Long.BYTES << TABLE_BITS;
    }

    private static final long PRIME_6 = 227718039650203L;
    private static final int INPUT_MARGIN = 8;
    private static final int MIN_NON_LITERAL_BLOCK = 1 + 1 + INPUT_MARGIN;
    private static final int STEP = 2;
    private static final int SEARCH_STRENGTH = 6;

    private final MatchTable table = new MatchTable(TABLE_BITS, 0);

    FastMatcher(int windowSize) {
        super(windowSize);
    }

    private static int hash(long u) {
        return (int) (((u << 16) * PRIME_6) >>> (64 - TABLE_BITS));
    }

    @Override
    void encode(Block block, byte[] data, int offset, int length) {
        if (window.nearOverflow()) {
            window.rebase(table);
        }
        int s = window.add(data, offset, length);
        find(block, window.bytes, s, window.length, false);
    }

    @Override
    void reset(long frameLength) {
        window.reset(frameLength, table);
    }

    @Override
    MatchTable[] tables() {
        return new MatchTable[] {table};
    }

    @Override
    void encodeAlone(Block block, byte[] data, int offset, int length) {
        find(block, Arrays.copyOfRange(data, offset, offset + length), 0, length, true);
    }

    /**
     * @param noHistory EncodeNoHist's one difference in output: it tries the second offset after a
     *                  match once the block has three sequences counting that match (Encode: not counting it)
     */
    private void find(Block block, byte[] src, int s, int end, boolean noHistory) {
        block.size = end - s;
        if (end - s < MIN_NON_LITERAL_BLOCK) {
            block.literals.put(src, s, end - s);
            return;
        }
        int cur = window.cur;
        int maxMatchOffset = window.maxMatchOffset;
        int sLimit = end - INPUT_MARGIN;
        int nextEmit = s;
        long cv = Bytes.load64(src, s);
        int offset1 = 0;
        int offset2 = 0;

        encodeLoop:
        while (true) {
            int t;
            boolean canRepeat = block.sequences > 2;
            while (true) {
                int nextHash = hash(cv);
                int nextHash2 = hash(cv >>> 8);
                long candidate = table.get(nextHash, (int) cv, s + cur);
                long candidate2 = table.get(nextHash2, (int) (cv >>> 8), s + 1 + cur);
                int candidateOffset = MatchTable.offset(candidate);
                int candidateValue = MatchTable.value(candidate);
                int candidate2Offset = MatchTable.offset(candidate2);
                int candidate2Value = MatchTable.value(candidate2);
                int repIndex = s - offset1 + 2;
                table.put(nextHash, s + cur, (int) cv);
                table.put(nextHash2, s + cur + 1, (int) (cv >>> 8));

                if (canRepeat && repIndex >= 0 && Bytes.load32(src, repIndex) == (int) (cv >>> 16)) {
                    int length = 4 + MatchWindow.matchLength(src, s + 6, repIndex + 4, end);
                    int matchLength = length - 3;
                    int start = s + 2;
                    int startLimit = nextEmit + 1;
                    int sMin = Math.max(s - maxMatchOffset, 0);
                    while (repIndex > sMin && start > startLimit && src[repIndex - 1] == src[start - 1] && matchLength < 131074 - 3) {
                        repIndex--;
                        start--;
                        matchLength++;
                    }
                    block.literals.put(src, nextEmit, start - nextEmit);
                    block.add(start - nextEmit, matchLength, 1);
                    s += length + 2;
                    nextEmit = s;
                    if (s >= sLimit) {
                        break encodeLoop;
                    }
                    cv = Bytes.load64(src, s);
                    continue;
                }
                int coffset0 = s - (candidateOffset - cur);
                int coffset1 = s - (candidate2Offset - cur) + 1;
                if (coffset0 < maxMatchOffset && (int) cv == candidateValue) {
                    t = candidateOffset - cur;
                    break;
                }
                if (coffset1 < maxMatchOffset && (int) (cv >>> 8) == candidate2Value) {
                    t = candidate2Offset - cur;
                    s++;
                    break;
                }
                s += STEP + ((s - nextEmit) >> (SEARCH_STRENGTH - 1));
                if (s >= sLimit) {
                    break encodeLoop;
                }
                cv = Bytes.load64(src, s);
            }

            offset2 = offset1;
            offset1 = s - t;
            int l = MatchWindow.matchLength(src, s + 4, t + 4, end) + 4;
            int tMin = Math.max(s - maxMatchOffset, 0);
            while (t > tMin && s > nextEmit && src[t - 1] == src[s - 1] && l < 131074) {
                s--;
                t--;
                l++;
            }
            block.literals.put(src, nextEmit, s - nextEmit);
            block.add(s - nextEmit, l - 3, s - t + 3);
            s += l;
            nextEmit = s;
            if (s >= sLimit) {
                break;
            }
            cv = Bytes.load64(src, s);

            int o2 = s - offset2;
            if ((noHistory ? block.sequences > 2 : canRepeat) && Bytes.load32(src, o2) == (int) cv) {
                int length = 4 + MatchWindow.matchLength(src, s + 4, o2 + 4, end);
                table.put(hash(cv), s + cur, (int) cv);
                block.add(0, length - 3, 1);
                s += length;
                nextEmit = s;
                int swap = offset1;
                offset1 = offset2;
                offset2 = swap;
                if (s >= sLimit) {
                    break;
                }
                cv = Bytes.load64(src, s);
            }
        }
        if (nextEmit < end) {
            block.literals.put(src, nextEmit, end - nextEmit);
        }
    }
}
