package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * SpeedBestCompression's match finder, compress 1.18.0's bestFastEncoder (enc_best.go): tables of 8-
 * and 4-byte hashes (2^22 and 2^18 slots, each keeping its previous position too), every candidate
 * (both slots of both tables, the three recent offsets, the next two positions, and a match found by
 * where the best one ends) priced in bits with the predefined tables against the literals it saves
 * at the block's order-0 entropy, and every position indexed. As in {@link DoubleFastMatcher}, the
 * block's starting recent offsets never reach the output: repeats are tried once the block has three
 * sequences, all of which set the offsets.
 */
final class BestMatcher extends MatchFinder {

    private static final int LONG_BITS = 22;
    private static final int SHORT_BITS = 18;

    /** The bytes its match tables take on the heap. */
    static long tableBytes() {
        return ((long) Long.BYTES << LONG_BITS) + ((long) Long.BYTES << SHORT_BITS);
    }

    private static final long PRIME_8 = 0xcf1bbcdcb7a56463L;
    private static final int PRIME_4 = (int) 2654435761L;
    private static final int INPUT_MARGIN = 8 + 4;
    private static final int MIN_NON_LITERAL_BLOCK = 16;
    private static final int SEARCH_STRENGTH = 10;
    private static final int GOOD_ENOUGH = 250;
    private static final int SKIP_BEGINNING = 2;
    private static final int MAX_MATCH_LENGTH = 131074;
    /** A candidate not worth its bits. */
    private static final int HIGH_SCORE = MAX_MATCH_LENGTH * 8;

    private final boolean shortcutsOneByteBlocks;
    /**
     * The tables' buckets, each its newest position (low 32 bits) and the one before (high 32): one
     * load and one store a position, where two arrays took two of each, which is most of what a
     * restart point's replay ({@link IndexReplay}) costs.
     */
    private final long[] longBuckets = new long[1 << LONG_BITS];
    private final long[] shortBuckets = new long[1 << SHORT_BITS];
    /** Told every position indexed, while a restart point's proof records them ({@link IndexReplay}); else null. */
    private IndexObserver observer;

    // the block being searched
    private byte[] src;
    private int nextEmit;
    private int bitsPerByte;
    // the best match so far (Go's match struct)
    private int bestOffset;
    private int bestS;
    private int bestLength;
    private int bestRep;
    private int bestEst;

    /** @param shortcutsOneByteBlocks whether a block of one repeated byte is one sequence unsearched (since 1.17.8) */
    BestMatcher(int windowSize, boolean shortcutsOneByteBlocks) {
        super(windowSize);
        this.shortcutsOneByteBlocks = shortcutsOneByteBlocks;
    }

    /**
     * Told the positions the match finder indexes, as content positions, in the order it indexes
     * them: each searched position, and after a match the positions it indexes up to its end.
     */
    interface IndexObserver {

        /** Position {@code s} was searched, and indexed, in the literal run from {@code nextEmit}. */
        void searched(int nextEmit, int s);

        /** Every position from {@code from} to {@code to} (exclusive; none if it is not above) was indexed. */
        void indexed(int from, int to);
    }

    void observe(IndexObserver observer) {
        this.observer = observer;
    }

    /** The next position searched after a search at {@code s} found nothing: every position, then ever fewer past 512 literal bytes. */
    static int nextSearch(int s, int nextEmit) {
        return s + 1 + ((s - nextEmit) >> (SEARCH_STRENGTH - 1));
    }

    /** Indexes every position of the history from {@code from} to {@code to} (exclusive), as after a match. */
    void replayRun(int from, int to) {
        src = window.bytes;
        for (int at = from; at < to; at++) {
            index(at, at + window.cur);
        }
        src = null;
    }

    /** Indexes the positions a literal run from {@code nextEmit} searches before {@code to} (exclusive). */
    void replaySearches(int nextEmit, int to) {
        src = window.bytes;
        for (int s = nextEmit; s < to; s = nextSearch(s, nextEmit)) {
            index(s, s + window.cur);
        }
        src = null;
    }

    private static int hashLong(long u) {
        return (int) ((u * PRIME_8) >>> (64 - LONG_BITS));
    }

    private static int hashShort(long u) {
        return ((int) u * PRIME_4) >>> (32 - SHORT_BITS);
    }

    @Override
    void encode(Block block, byte[] data, int offset, int length) {
        if (window.nearOverflow()) {
            window.rebase(longBuckets, shortBuckets);
        }
        int s = window.add(data, offset, length);
        find(block, window.bytes, s, window.length);
    }

    @Override
    void reset(long frameLength) {
        window.reset(frameLength, longBuckets, shortBuckets);
    }

    /** EncodeNoHist is Encode here: the frame's only block goes into the (empty) history all the same. */
    @Override
    void encodeAlone(Block block, byte[] data, int offset, int length) {
        encode(block, data, offset, length);
    }

    private void index(int at, int position) {
        long cv = Bytes.load64(src, at);
        int h0 = hashLong(cv);
        int h1 = hashShort(cv);
        longBuckets[h0] = MatchTable.pushed(longBuckets[h0], position);
        shortBuckets[h1] = MatchTable.pushed(shortBuckets[h1], position);
    }

    private void find(Block block, byte[] src, int s, int end) {
        this.src = src;
        int blockLength = end - s;
        block.size = blockLength;
        if (shortcutsOneByteBlocks && oneByteBlock(block, src, s, end)) {
            return;
        }
        if (blockLength < MIN_NON_LITERAL_BLOCK) {
            block.literals.put(src, s, blockLength);
            return;
        }
        bitsPerByte = Math.max(1024, (int) ((long) GoLog2.shannonEntropyBits(src, s, blockLength) * 1024 / blockLength));
        int cur = window.cur;
        int sLimit = end - INPUT_MARGIN;
        nextEmit = s;
        int offset1 = 0;
        int offset2 = 0;
        int offset3 = 0;

        while (true) {
            boolean canRepeat = block.sequences > 2;
            long cv = Bytes.load64(src, s);
            int nextHashL = hashLong(cv);
            int nextHashS = hashShort(cv);
            long longBucket = longBuckets[nextHashL];
            long shortBucket = shortBuckets[nextHashS];
            int candidateL = MatchTable.offset(longBucket);
            int candidateLPrevious = MatchTable.previous(longBucket);
            int candidateS = MatchTable.offset(shortBucket);
            int candidateSPrevious = MatchTable.previous(shortBucket);

            bestOffset = 0;
            bestS = s;
            bestLength = 0;
            bestRep = 0;
            bestEst = HIGH_SCORE;
            improve(candidateL - cur, s, (int) cv, -1);
            improve(candidateLPrevious - cur, s, (int) cv, -1);
            improve(candidateS - cur, s, (int) cv, -1);
            improve(candidateSPrevious - cur, s, (int) cv, -1);

            if (canRepeat && bestLength < GOOD_ENOUGH) {
                if (s == nextEmit) {
                    // no literals: repeat codes 1-3 mean the second, third and first-minus-one offsets
                    improve(s - offset2, s, (int) cv, 1 | 4);
                    improve(s - offset3, s, (int) cv, 2 | 4);
                    if (offset1 > 1) {
                        improve(s - (offset1 - 1), s, (int) cv, 3 | 4);
                    }
                }
                if (bestRep <= 0) {
                    int cv32 = (int) (cv >>> 8);
                    int spp = s + 1;
                    improve(spp - offset1, spp, cv32, 1);
                    improve(spp - offset2, spp, cv32, 2);
                    improve(spp - offset3, spp, cv32, 3);
                    if (bestRep < 0) {
                        cv32 = (int) (cv >>> 24);
                        spp += 2;
                        improve(spp - offset1, spp, cv32, 1);
                        improve(spp - offset2, spp, cv32, 2);
                        improve(spp - offset3, spp, cv32, 3);
                    }
                }
            }
            longBuckets[nextHashL] = MatchTable.pushed(longBucket, s + cur);
            shortBuckets[nextHashS] = MatchTable.pushed(shortBucket, s + cur);
            if (observer != null) {
                observer.searched(nextEmit + cur - window.maxMatchOffset, s + cur - window.maxMatchOffset);
            }
            int index0 = s + 1;

            if (bestLength < GOOD_ENOUGH) {
                if (bestLength < 4) {
                    s = nextSearch(s, nextEmit);
                    if (s >= sLimit) {
                        break;
                    }
                    continue;
                }
                int nextS = MatchTable.offset(shortBuckets[hashShort(cv >>> 8)]);
                long cv1 = Bytes.load64(src, s + 1);
                long cv2 = Bytes.load64(src, s + 2);
                int hashL1 = hashLong(cv1);
                int hashL2 = hashLong(cv2);
                long nextBucket = longBuckets[hashL1];
                long nextBucket2 = longBuckets[hashL2];
                int nextL = MatchTable.offset(nextBucket);
                int nextLPrevious = MatchTable.previous(nextBucket);
                int nextL2 = MatchTable.offset(nextBucket2);
                int nextL2Previous = MatchTable.previous(nextBucket2);
                improve(nextS - cur, s + 1, (int) cv1, -1);
                improve(nextL - cur, s + 1, (int) cv1, -1);
                improve(nextLPrevious - cur, s + 1, (int) cv1, -1);
                improve(nextL2 - cur, s + 2, (int) cv2, -1);
                improve(nextL2Previous - cur, s + 2, (int) cv2, -1);

                if (bestS > s - SKIP_BEGINNING) {
                    int sAt = bestS + bestLength;
                    if (sAt < sLimit) {
                        // a match that ends where the best one does, starting a little later
                        int hashEnd = hashLong(Bytes.load64(src, sAt));
                        long endBucket = longBuckets[hashEnd];
                        int endOffset = MatchTable.offset(endBucket);
                        int endPrevious = MatchTable.previous(endBucket);
                        int off = endOffset - cur - bestLength + SKIP_BEGINNING;
                        if (off >= 0) {
                            improve(off, bestS + SKIP_BEGINNING, Bytes.load32(src, bestS + SKIP_BEGINNING), -1);
                            off = endPrevious - cur - bestLength + SKIP_BEGINNING;
                            if (off >= 0) {
                                improve(off, bestS + SKIP_BEGINNING, Bytes.load32(src, bestS + SKIP_BEGINNING), -1);
                            }
                        }
                    }
                }
            }

            s = bestS;
            if (bestRep > 0) {
                block.literals.put(src, nextEmit, bestS - nextEmit);
                block.add(bestS - nextEmit, bestLength - 3, bestRep & 3);
                s = bestS + bestLength;
                nextEmit = s;
                int indexEnd = Math.min(s, sLimit + 4);
                if (observer != null) {
                    observer.indexed(index0 + cur - window.maxMatchOffset, indexEnd + cur - window.maxMatchOffset);
                }
                for (int off = index0 + cur; index0 < indexEnd; index0++, off++) {
                    index(index0, off);
                }
                switch (bestRep) {
                    case 2, 4 | 1 -> {
                        int swap = offset1;
                        offset1 = offset2;
                        offset2 = swap;
                    }
                    case 3, 4 | 2 -> {
                        int third = offset3;
                        offset3 = offset2;
                        offset2 = offset1;
                        offset1 = third;
                    }
                    case 4 | 3 -> {
                        offset3 = offset2;
                        offset2 = offset1;
                        offset1 = offset1 - 1;
                    }
                    default -> {
                    }
                }
                if (s >= sLimit) {
                    break;
                }
                continue;
            }

            int t = bestOffset;
            offset3 = offset2;
            offset2 = offset1;
            offset1 = s - t;
            int l = bestLength;
            block.literals.put(src, nextEmit, s - nextEmit);
            block.add(s - nextEmit, l - 3, s - t + 3);
            s += l;
            nextEmit = s;
            int indexEnd = Math.min(s, sLimit - 4);
            if (observer != null) {
                observer.indexed(index0 + cur - window.maxMatchOffset, indexEnd + cur - window.maxMatchOffset);
            }
            for (int off = index0 + cur; index0 < indexEnd; index0++, off++) {
                index(index0, off);
            }
            if (s >= sLimit) {
                break;
            }
        }
        if (nextEmit < end) {
            block.literals.put(src, nextEmit, end - nextEmit);
        }
        this.src = null;
    }

    /** Takes the match at {@code offset} for position {@code s} if it is cheaper in bits than the best so far. */
    private void improve(int offset, int s, int first, int rep) {
        int delta = s - offset;
        if (delta >= window.maxMatchOffset || delta <= 0 || Bytes.load32(src, offset) != first) {
            return;
        }
        if (bestLength > 16) {
            int left = window.length - (bestS + bestLength);
            if (left <= 0) {
                return;
            }
            int checkLen = bestLength - (s - bestS) - 8;
            if (left > 2 && checkLen > 4 && Bytes.load32(src, offset + checkLen) != Bytes.load32(src, s + checkLen)) {
                return;
            }
        }
        int l = 4 + MatchWindow.matchLength(src, s + 4, offset + 4, window.length);
        if (bestRep <= 0) {
            int tMin = Math.max(s - window.maxMatchOffset, 0);
            while (offset > tMin && s > nextEmit && src[offset - 1] == src[s - 1] && l < MAX_MATCH_LENGTH) {
                s--;
                offset--;
                l++;
            }
        }
        int length = l;
        int est = estimateBits(offset, s, length, rep);
        if (est > 0) {
            length = 0;
            est = HIGH_SCORE;
        }
        if (bestEst >= HIGH_SCORE || est - bestEst + ((s - bestS) * bitsPerByte >> 10) < 0) {
            bestOffset = offset;
            bestS = s;
            bestLength = length;
            bestRep = rep;
            bestEst = est;
        }
    }

    /** The bits of the match's codes with the predefined tables, less the literals it saves (match.estBits). */
    private int estimateBits(int offset, int s, int length, int rep) {
        int mlCode = SequenceCodes.matchLengthCode(length - 3);
        int ofCode = rep < 0 ? SequenceCodes.offsetCode(s - offset + 3) : SequenceCodes.offsetCode(rep & 3);
        SequenceTable of = SequenceCodes.OFFSETS;
        SequenceTable ml = SequenceCodes.MATCH_LENGTHS;
        int est = of.outBits[ofCode] + ml.outBits[mlCode];
        est += (of.table.deltaNbBits[ofCode] >>> 16) + (ml.table.deltaNbBits[mlCode] >>> 16);
        return est - (length * bitsPerByte >> 10);
    }
}
