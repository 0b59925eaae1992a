package dev.layerfold.dedup.codec.zstd.klauspost;

import java.util.Arrays;

/**
 * SpeedDefault's match finder, compress 1.18.0's doubleFastEncoder (enc_dfast.go, after zstd_dfast.c):
 * a long table hashing 8 bytes (2^17 entries) and a short one hashing 5 (2^15), a long match
 * preferred, a short one checked for a long match one byte later, the last offset tried first once
 * the block has three sequences, and the skip growing with the distance since the last match.
 *
 * <p>The block's starting recent offsets never reach the output: repeats are only tried once the
 * block has three sequences, by when both offsets it uses came from its own matches. So they are not
 * carried between blocks here.
 */
final class DoubleFastMatcher extends MatchFinder {

    private static final int LONG_BITS = 17;
    private static final int SHORT_BITS = 15;

    /** The bytes its match tables take on the heap. */
    static long tableBytes() {
        return ((long) Long.BYTES << LONG_BITS) + ((long) Long.BYTES << SHORT_BITS);
    }

    private static final long PRIME_8 = 0xcf1bbcdcb7a56463L;
    private static final long PRIME_5 = 889523592379L;
    private static final int INPUT_MARGIN = 8 + 2;
    private static final int MIN_NON_LITERAL_BLOCK = 16;
    private static final int SEARCH_STRENGTH = 8;

    private final MatchTable longTable = new MatchTable(LONG_BITS, 0);
    private final MatchTable shortTable = new MatchTable(SHORT_BITS, 1);

    DoubleFastMatcher(int windowSize) {
        super(windowSize);
    }

    private static int hashLong(long u) {
        return (int) ((u * PRIME_8) >>> (64 - LONG_BITS));
    }

    private static int hashShort(long u) {
        return (int) (((u << 24) * PRIME_5) >>> (64 - SHORT_BITS));
    }

    @Override
    void encode(Block block, byte[] data, int offset, int length) {
        if (window.nearOverflow()) {
            window.rebase(shortTable, longTable);
        }
        int s = window.add(data, offset, length);
        find(block, window.bytes, s, window.length, false);
    }

    @Override
    MatchTable[] tables() {
        return new MatchTable[] {longTable, shortTable};
    }

    @Override
    void reset(long frameLength) {
        window.reset(frameLength, longTable, shortTable);
    }

    @Override
    void encodeAlone(Block block, byte[] data, int offset, int length) {
        byte[] src = Arrays.copyOfRange(data, offset, offset + length);
        find(block, src, 0, length, true);
    }

    /**
     * @param noHistory EncodeNoHist's two differences in output: it tries the second offset after a
     *                  match once the block has three sequences counting that match (Encode: not
     *                  counting it), and after such a repeat it files the position in the short table
     *                  under the hash of bytes near the end of the previous match rather than its own
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
        long cv1 = 0;

        encodeLoop:
        while (true) {
            int t;
            boolean canRepeat = block.sequences > 2;
            while (true) {
                int nextHashL = hashLong(cv);
                int nextHashS = hashShort(cv);
                long candidateL = longTable.get(nextHashL, (int) cv, s + cur);
                long candidateS = shortTable.get(nextHashS, (int) cv, s + cur);
                int candidateLOffset = MatchTable.offset(candidateL);
                int candidateSOffset = MatchTable.offset(candidateS);
                int repIndex = s - offset1 + 1;
                longTable.put(nextHashL, s + cur, (int) cv);
                shortTable.put(nextHashS, s + cur, (int) cv);

                if (canRepeat && repIndex >= 0 && Bytes.load32(src, repIndex) == (int) (cv >>> 8)) {
                    int length = 4 + MatchWindow.matchLength(src, s + 5, repIndex + 4, end);
                    int matchLength = length - 3;
                    int start = s + 1;
                    int startLimit = nextEmit + 1;
                    int tMin = Math.max(s - maxMatchOffset, 0);
                    while (repIndex > tMin && start > startLimit && src[repIndex - 1] == src[start - 1] && matchLength < 131074 - 3 - 1) {
                        repIndex--;
                        start--;
                        matchLength++;
                    }
                    block.literals.put(src, nextEmit, start - nextEmit);
                    block.add(start - nextEmit, matchLength, 1);
                    s += length + 1;
                    nextEmit = s;
                    if (s >= sLimit) {
                        break encodeLoop;
                    }
                    cv = Bytes.load64(src, s);
                    continue;
                }
                int coffsetL = s - (candidateLOffset - cur);
                int coffsetS = s - (candidateSOffset - cur);
                if (coffsetL < maxMatchOffset && (int) cv == MatchTable.value(candidateL)) {
                    t = candidateLOffset - cur;
                    break;
                }
                if (coffsetS < maxMatchOffset && (int) cv == MatchTable.value(candidateS)) {
                    long cvNext = Bytes.load64(src, s + 1);
                    nextHashL = hashLong(cvNext);
                    candidateL = longTable.get(nextHashL, (int) cvNext, s + 1 + cur);
                    candidateLOffset = MatchTable.offset(candidateL);
                    coffsetL = s - (candidateLOffset - cur) + 1;
                    longTable.put(nextHashL, s + 1 + cur, (int) cvNext);
                    if (coffsetL < maxMatchOffset && (int) cvNext == MatchTable.value(candidateL)) {
                        t = candidateLOffset - cur;
                        s += 1;
                        break;
                    }
                    t = candidateSOffset - cur;
                    break;
                }
                s += 1 + ((s - nextEmit) >> (SEARCH_STRENGTH - 1));
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

            int index0 = s - l + 1;
            int index1 = s - 2;
            long cv0 = Bytes.load64(src, index0);
            cv1 = Bytes.load64(src, index1);
            longTable.put(hashLong(cv0), index0 + cur, (int) cv0);
            longTable.put(hashLong(cv1), index1 + cur, (int) cv1);
            shortTable.put(hashShort(cv0 >>> 8), index0 + 1 + cur, (int) (cv0 >>> 8));
            shortTable.put(hashShort(cv1 >>> 8), index1 + 1 + cur, (int) (cv1 >>> 8));

            cv = Bytes.load64(src, s);
            if (noHistory ? block.sequences <= 2 : !canRepeat) {
                continue;
            }
            while (true) {
                int o2 = s - offset2;
                if (Bytes.load32(src, o2) != (int) cv) {
                    break;
                }
                int hashS = hashShort(noHistory ? cv1 >>> 16 : cv);
                int hashL = hashLong(cv);
                int length = 4 + MatchWindow.matchLength(src, s + 4, o2 + 4, end);
                longTable.put(hashL, s + cur, (int) cv);
                shortTable.put(hashS, s + cur, (int) cv);
                block.add(0, length - 3, 1);
                s += length;
                nextEmit = s;
                int swap = offset1;
                offset1 = offset2;
                offset2 = swap;
                if (s >= sLimit) {
                    break encodeLoop;
                }
                cv = Bytes.load64(src, s);
            }
        }
        if (nextEmit < end) {
            block.literals.put(src, nextEmit, end - nextEmit);
        }
    }
}
