package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * SpeedBetterCompression's match finder, compress 1.18.0's betterFastEncoder (enc_better.go): a long
 * table hashing 8 bytes (2^19 entries) that keeps each slot's previous position too, a short one
 * hashing 5 (2^13); a long match (the longer of a slot's two) preferred, a short one checked for a
 * longer long match a byte later, then for one three bytes in whose end hashes as the match's end;
 * every position of a match indexed, and (since 1.17.8) a block that is one repeated byte written as one sequence.
 * As in {@link DoubleFastMatcher}, the block's starting recent offsets never reach the output.
 */
final class BetterMatcher extends MatchFinder {

    private static final int LONG_BITS = 19;
    private static final int SHORT_BITS = 13;

    /** The bytes its match tables take on the heap. */
    static long tableBytes() {
        return ((long) Long.BYTES << LONG_BITS) + ((long) Long.BYTES << SHORT_BITS);
    }

    private static final long PRIME_8 = 0xcf1bbcdcb7a56463L;
    private static final long PRIME_5 = 889523592379L;
    private static final int INPUT_MARGIN = 8 + 2;
    private static final int MIN_NON_LITERAL_BLOCK = 16;
    private static final int SEARCH_STRENGTH = 9;
    private static final int SKIP_BEGINNING = 3;

    private final boolean shortcutsOneByteBlocks;
    private final MatchTable longTable = MatchTable.ofBuckets(LONG_BITS, 0);
    private final MatchTable shortTable = new MatchTable(SHORT_BITS, 1);

    /** @param shortcutsOneByteBlocks whether a block of one repeated byte is one sequence unsearched (since 1.17.8) */
    BetterMatcher(int windowSize, boolean shortcutsOneByteBlocks) {
        super(windowSize);
        this.shortcutsOneByteBlocks = shortcutsOneByteBlocks;
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
            window.rebase(longTable, shortTable);
        }
        int s = window.add(data, offset, length);
        find(block, window.bytes, s, window.length);
    }

    @Override
    MatchTable[] tables() {
        return new MatchTable[] {longTable, shortTable};
    }

    @Override
    void reset(long frameLength) {
        window.reset(frameLength, longTable, shortTable);
    }

    /** EncodeNoHist is Encode here: the frame's only block goes into the (empty) history all the same. */
    @Override
    void encodeAlone(Block block, byte[] data, int offset, int length) {
        encode(block, data, offset, length);
    }

    private void find(Block block, byte[] src, int s, int end) {
        int blockLength = end - s;
        block.size = blockLength;
        if (shortcutsOneByteBlocks && oneByteBlock(block, src, s, end)) {
            return;
        }
        if (blockLength < MIN_NON_LITERAL_BLOCK) {
            block.literals.put(src, s, blockLength);
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
            int matched;
            int index0;
            while (true) {
                int nextHashL = hashLong(cv);
                int nextHashS = hashShort(cv);
                long candidateL = longTable.bucket(nextHashL, (int) cv, s + cur, 0);
                long candidateS = shortTable.get(nextHashS, (int) cv, s + cur);
                int candidateLOffset = MatchTable.offset(candidateL);
                int candidateLPrevious = MatchTable.previous(candidateL);
                int candidateSOffset = MatchTable.offset(candidateS);
                int candidateSValue = MatchTable.value(candidateS);
                int repIndex = s - offset1 + 1;
                int off = s + cur;
                longTable.push(nextHashL, off);
                shortTable.put(nextHashS, off, (int) cv);
                index0 = s + 1;

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
                    int index = s + 1;
                    s += length + 1;
                    nextEmit = s;
                    if (s >= sLimit) {
                        break encodeLoop;
                    }
                    for (; index < s - 1; index += 2) {
                        long cv0 = Bytes.load64(src, index);
                        longTable.push(hashLong(cv0), index + cur);
                        shortTable.put(hashShort(cv0 >>> 8), index + cur + 1, (int) (cv0 >>> 8));
                    }
                    cv = Bytes.load64(src, s);
                    continue;
                }
                int coffsetL = candidateLOffset - cur;
                int coffsetLP = candidateLPrevious - cur;
                if (s - coffsetL < maxMatchOffset && cv == Bytes.load64(src, coffsetL)) {
                    matched = MatchWindow.matchLength(src, s + 8, coffsetL + 8, end) + 8;
                    t = coffsetL;
                    if (s - coffsetLP < maxMatchOffset && cv == Bytes.load64(src, coffsetLP)) {
                        int prevMatch = MatchWindow.matchLength(src, s + 8, coffsetLP + 8, end) + 8;
                        if (prevMatch > matched) {
                            matched = prevMatch;
                            t = coffsetLP;
                        }
                    }
                    break;
                }
                if (s - coffsetLP < maxMatchOffset && cv == Bytes.load64(src, coffsetLP)) {
                    matched = MatchWindow.matchLength(src, s + 8, coffsetLP + 8, end) + 8;
                    t = coffsetLP;
                    break;
                }
                int coffsetS = candidateSOffset - cur;
                if (s - coffsetS < maxMatchOffset && (int) cv == candidateSValue) {
                    matched = MatchWindow.matchLength(src, s + 4, coffsetS + 4, end) + 4;
                    long cvNext = Bytes.load64(src, s + 1);
                    nextHashL = hashLong(cvNext);
                    candidateL = longTable.bucket(nextHashL, (int) cvNext, s + 1 + cur, 0);
                    candidateLOffset = MatchTable.offset(candidateL);
                    candidateLPrevious = MatchTable.previous(candidateL);
                    coffsetL = candidateLOffset - cur;
                    longTable.push(nextHashL, s + 1 + cur);
                    if (s - coffsetL < maxMatchOffset && cvNext == Bytes.load64(src, coffsetL)) {
                        int matchedNext = MatchWindow.matchLength(src, s + 9, coffsetL + 8, end) + 8;
                        if (matchedNext > matched) {
                            t = coffsetL;
                            s += 1;
                            matched = matchedNext;
                            break;
                        }
                    }
                    coffsetL = candidateLPrevious - cur;
                    if (s - coffsetL < maxMatchOffset && cvNext == Bytes.load64(src, coffsetL)) {
                        int matchedNext = MatchWindow.matchLength(src, s + 9, coffsetL + 8, end) + 8;
                        if (matchedNext > matched) {
                            t = coffsetL;
                            s += 1;
                            matched = matchedNext;
                            break;
                        }
                    }
                    t = coffsetS;
                    break;
                }
                s += 1 + ((s - nextEmit) >> (SEARCH_STRENGTH - 1));
                if (s >= sLimit) {
                    break encodeLoop;
                }
                cv = Bytes.load64(src, s);
            }

            if (s + matched < sLimit) {
                // Is there a longer match starting three bytes in, found by where this one ends?
                int nextHashL = hashLong(Bytes.load64(src, s + matched));
                int s2 = s + SKIP_BEGINNING;
                int cv2 = Bytes.load32(src, s2);
                int candidateOffset = MatchTable.offset(longTable.bucket(nextHashL, cv2, s2 + cur, matched - SKIP_BEGINNING));
                int coffsetL = candidateOffset - cur - matched + SKIP_BEGINNING;
                if (coffsetL >= 0 && coffsetL < s2 && s2 - coffsetL < maxMatchOffset && cv2 == Bytes.load32(src, coffsetL)) {
                    int matchedNext = MatchWindow.matchLength(src, s2 + 4, coffsetL + 4, end) + 4;
                    if (matchedNext > matched) {
                        t = coffsetL;
                        s = s2;
                        matched = matchedNext;
                    }
                }
                // read again: a longer match just found moves the test of the previous position
                int candidatePrevious = MatchTable.previous(longTable.bucket(nextHashL, cv2, s2 + cur, matched - SKIP_BEGINNING));
                coffsetL = candidatePrevious - cur - matched + SKIP_BEGINNING;
                if (coffsetL >= 0 && coffsetL < s2 && s2 - coffsetL < maxMatchOffset && cv2 == Bytes.load32(src, coffsetL)) {
                    int matchedNext = MatchWindow.matchLength(src, s2 + 4, coffsetL + 4, end) + 4;
                    if (matchedNext > matched) {
                        t = coffsetL;
                        s = s2;
                        matched = matchedNext;
                    }
                }
            }
            offset2 = offset1;
            offset1 = s - t;
            int l = matched;
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

            int off = index0 + cur;
            for (; index0 < s - 1; index0 += 2, off += 2) {
                long cv0 = Bytes.load64(src, index0);
                longTable.push(hashLong(cv0), off);
                shortTable.put(hashShort(cv0 >>> 8), off + 1, (int) (cv0 >>> 8));
            }

            cv = Bytes.load64(src, s);
            if (!canRepeat) {
                continue;
            }
            while (true) {
                int o2 = s - offset2;
                if (Bytes.load32(src, o2) != (int) cv) {
                    break;
                }
                int hashL = hashLong(cv);
                int hashS = hashShort(cv);
                int length = 4 + MatchWindow.matchLength(src, s + 4, o2 + 4, end);
                longTable.push(hashL, s + cur);
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
