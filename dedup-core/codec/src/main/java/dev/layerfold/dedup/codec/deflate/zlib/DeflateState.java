package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.FastRestart;
import dev.layerfold.dedup.codec.deflate.TokenObserver;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * Port of zlib 1.2.13's deflate.c for raw deflate (windowBits -9..-15): deflate_state and the functions
 * that drive it. The caller is modelled as always having unlimited output space, so every
 * {@code avail_out == 0} branch of the C code is unreachable and left out; everything else follows the
 * C code statement for statement, including the bytes left in the window from earlier input, which
 * longest_match() may read past the lookahead and which therefore influence which match wins.
 */
final class DeflateState implements LazyDeflate {

    // deflate()'s flush values, zlib's numbering (ZlibFlush's ordinals); Z_SYNC_FLUSH needs no name here.
    static final int NO_FLUSH = 0;
    static final int PARTIAL_FLUSH = 1;
    static final int FULL_FLUSH = 3;
    static final int FINISH = 4;
    static final int BLOCK = 5;

    private static final int MIN_MATCH = 3;
    private static final int MAX_MATCH = 258;
    private static final int MIN_LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1;
    private static final int TOO_FAR = 4096;
    private static final int MAX_STORED = 65535;
    /** last_flush after deflateReset(): deflateParams() need not flush. */
    private static final int RESET_FLUSH = -2;

    // block_state
    private static final int NEED_MORE = 0;
    private static final int BLOCK_DONE = 1;
    private static final int FINISH_STARTED = 2;
    private static final int FINISH_DONE = 3;

    // configuration_table: good_length, max_lazy, nice_length, max_chain, func (0 stored, 1 fast, 2 slow)
    private static final int[][] CONFIGURATION_TABLE = {
        {0, 0, 0, 0, 0},
        {4, 4, 8, 4, 1},
        {4, 5, 16, 8, 1},
        {4, 6, 32, 32, 1},
        {4, 4, 16, 16, 2},
        {8, 16, 32, 32, 2},
        {8, 16, 128, 128, 2},
        {8, 32, 128, 256, 2},
        {32, 128, 258, 1024, 2},
        {32, 258, 258, 4096, 2},
    };

    private static final byte[] NO_INPUT = new byte[0];

    private final PendingOutput out;
    private final Trees trees;

    private final int wSize;
    private final int wMask;
    private final int windowSize;
    /** The sliding window, with {@link MatchBytes#SLACK} bytes past its end. */
    private final byte[] window;
    /** prev and head hold zlib's 16-bit Pos values; char keeps them as compact (and cache-friendly) as in C. */
    private final char[] prev;
    private final char[] head;
    private final int hashMask;
    private final int hashShift;
    private final int pendingBufSize;

    private boolean finished;
    private int lastFlush;
    private int level;
    private ZlibStrategy strategy;
    private int maxLazyMatch;
    private int goodMatch;
    private int niceMatch;
    private int maxChainLength;

    private int insH;
    private int blockStart;
    private int strstart;
    private int matchStart;
    private int lookahead;
    private int matchLength;
    private int prevMatch;
    private int prevLength;
    private boolean matchAvailable;
    private int insert;
    /** deflate_stored()'s count of hash slides owed, for a later switch to a level above 0. */
    private int matches;

    private byte[] nextIn;
    private int nextInPos;
    private int availIn;

    /** The input offset of window[0]: deflate_slow's block boundaries as offsets in the whole input. */
    private long windowBase;
    /** deflate_slow stops at the first block boundary at or past this input offset (a segment's end). */
    private long stopFrom = Long.MAX_VALUE;
    /** Where deflate_slow stopped, once it did: the next segment's start. */
    private LazyRestartState stopped;
    /** deflate_fast resumed from a restart point: until this input offset (the point) it warms the chains up, writing nothing; -1 after. */
    private long warmUntil = -1;
    /** A check's shadow ({@link FastRestart}) stops at this input offset, where the encoder it shadows is; -1: never. */
    private long pauseAt = -1;
    /** deflate_fast for the proof: it ends a segment only at boundaries a shadow was seen to go on from as it does; null otherwise. */
    private FastRestart<DeflateState, LazyRestartState> verified;
    private final ZlibSettings settings;

    DeflateState(PendingOutput out, ZlibSettings settings) {
        this.out = out;
        this.wSize = 1 << settings.windowBits();
        this.wMask = wSize - 1;
        this.windowSize = 2 * wSize;
        this.window = new byte[windowSize + MatchBytes.SLACK];
        this.prev = new char[wSize];
        int hashBits = settings.memLevel() + 7;
        this.head = new char[1 << hashBits];
        this.hashMask = head.length - 1;
        this.hashShift = (hashBits + MIN_MATCH - 1) / MIN_MATCH;
        int litBufsize = 1 << (settings.memLevel() + 6);
        this.pendingBufSize = litBufsize * 4;
        this.trees = new Trees(out, litBufsize);
        this.level = settings.level();
        this.strategy = settings.strategy();
        this.settings = settings;
        reset();
    }

    int level() {
        return level;
    }

    void observeTokens(TokenObserver observer) {
        trees.observeTokens(observer);
    }

    /** deflateReset(): deflateResetKeep() plus lm_init(). The window keeps its bytes, as in zlib. */
    void reset() {
        finished = false;
        lastFlush = RESET_FLUSH;
        trees.init();
        clearHash();
        applyConfiguration();
        strstart = 0;
        blockStart = 0;
        lookahead = 0;
        insert = 0;
        matchLength = prevLength = MIN_MATCH - 1;
        matchAvailable = false;
        insH = 0;
        windowBase = 0;
        stopFrom = Long.MAX_VALUE;
        stopped = null;
    }

    /**
     * Continues a fresh stream (levels 4 to 9, default settings, no flushes so far) from a block
     * boundary. The window is rebuilt at the point's place in it, so slides fall where they did;
     * every position before the point (and at it, for a pending literal) goes into the hash chains as
     * deflate_slow had inserted it, through fill_window()'s {@code insert}, which reads the two bytes
     * after each position once they arrive. Earlier positions are out of any match's reach, so the
     * chains' older entries ended every walk anyway.
     *
     * @throws IllegalArgumentException if the state cannot be one deflate_slow stopped at
     */
    @Override
    public void resume(LazyRestartState state, byte[] history, int offset, int length, int startBit) {
        if (LazyRestartState.fastLevel(level)) {
            resumeFast(state, history, offset, length, startBit);
            return;
        }
        state.placeHistory(window, windowSize, history, offset, length);
        int w = state.windowOffset();
        int available = state.matchAvailable() ? 1 : 0;
        windowBase = state.windowBase();
        // A pending literal was already taken from the lookahead: the point's byte is read to window[w].
        strstart = w + available;
        lookahead = -available;
        insert = state.history() + available;
        blockStart = w;
        matchAvailable = available == 1;
        matchLength = state.matchLength();
        matchStart = w - state.matchDistance();
        lastFlush = NO_FLUSH;
        out.startAtBit(startBit);
    }

    /**
     * Where a stream that was just flushed to a block boundary stands (all its input taken, nothing
     * pending): pigz's single-thread blocks end so, before it pads them to a byte.
     *
     * @throws IllegalStateException if input is still waiting or a literal is pending
     */
    LazyRestartState flushedBoundary() {
        if (lookahead != 0 || matchAvailable || availIn != 0) {
            throw new IllegalStateException("the stream was not flushed to a block boundary: " + lookahead + " bytes ahead");
        }
        return LazyRestartState.at(windowBase, strstart, false, 0, 0);
    }

    /**
     * Continues a fresh stream at levels 1 to 3 (default settings, no flushes so far) from a block
     * boundary: deflate_fast runs over the input before the point from empty chains, writing nothing
     * ({@link FastRestart}), and the first block starts where it reaches the point. The window is laid
     * out as the original's (slides fall where they did, and the bytes past the input at the stream's
     * end are the original's), so a warm-up that falls into step with it leaves its very chains.
     *
     * @throws IllegalArgumentException if the state cannot be one deflate_fast stopped at, or history lacks the warm-up's input
     */
    private void resumeFast(LazyRestartState state, byte[] history, int offset, int length, int startBit) {
        long point = state.input();
        int warmUp = (int) (point - FastRestart.warmUpStart(point));
        state.checkFastResumable(length, "zlib");
        long base = FastRestart.warmUpWindowBase(point, state.windowBase());
        if (base == state.windowBase()) {
            state.placeHistory(window, windowSize, history, offset, length);
        }
        windowBase = base;
        strstart = blockStart = (int) (point - warmUp - base);
        warmUntil = point;
        lastFlush = NO_FLUSH;
        out.startAtBit(startBit);
        deflate(history, offset + length - warmUp, warmUp, NO_FLUSH);
    }

    /** The warm-up reached the point: the segment's first block starts here. A check's shadow that passed it is compared and found to differ. */
    private void endWarmUp() {
        if (pauseAt < 0) {
            FastRestart.requireWarmUpEndsAtPoint(windowBase + strstart, warmUntil);
        }
        blockStart = strstart;
        warmUntil = -1;
    }

    /**
     * A block ended at a boundary past the segment's end: starts checking it with a segment resumed
     * there ({@link FastRestart}). True if the segment ends here.
     */
    private boolean checkBoundary() {
        if (!verified.due()) {
            return false;
        }
        byte[] before = verified.warmUpInput(window, windowBase, strstart);
        if (before == null) {
            return false;
        }
        LazyRestartState point = LazyRestartState.at(windowBase, strstart, false, 0, 0);
        DeflateState shadow = new DeflateState(new PendingOutput(OutputStream.nullOutputStream()), settings);
        shadow.pauseAt = point.input();
        shadow.resumeFast(point, before, 0, before.length, 0);
        verified.start(point, shadow, point.input());
        return compareWithShadow();
    }

    /** Gives the shadow the input this encoder read, up to where it is, and compares them there; true if the segment ended at the shadow's point. */
    private boolean compareWithShadow() {
        DeflateState shadow = verified.shadow();
        long at = windowBase + strstart;
        shadow.pauseAt = at;
        int from = (int) (verified.fed() - windowBase);
        verified.fedTo(verified.fed() + shadow.shadowTake(window, from, strstart + lookahead - from));
        boolean sameSoFar = shadow.windowBase == windowBase && shadow.strstart == strstart && trees.sameSymbols(shadow.trees);
        stopped = verified.compared(at, sameSoFar,
                () -> FastRestart.sameChains(head, prev, shadow.head, shadow.prev, strstart, maxDist(), maxChainLength), maxDist());
        return stopped != null;
    }

    /**
     * Runs a shadow's deflate_fast over {@code data}, as far as its pause: deflate() itself would not
     * run without new input, and a shadow may have to catch up on input it already holds.
     * Returns how much it read.
     */
    private int shadowTake(byte[] data, int offset, int length) {
        nextIn = data;
        nextInPos = offset;
        availIn = length;
        deflateFast(NO_FLUSH);
        nextIn = null;
        return length - availIn;
    }

    @Override
    public void verifyBoundaries(byte[] history, int offset, int length, long start) {
        if (LazyRestartState.fastLevel(level)) {
            verified = new FastRestart<>(history, offset, length, start);
        }
    }

    @Override
    public void stopAtBlockFrom(long offset) {
        stopFrom = offset;
    }

    @Override
    public LazyRestartState stopped() {
        return stopped;
    }

    @Override
    public int take(byte[] data, int offset, int length) {
        deflate(data, offset, length, NO_FLUSH);
        return length - availIn;
    }

    @Override
    public void finish() {
        deflate(NO_INPUT, 0, 0, FINISH);
    }

    private void applyConfiguration() {
        int[] config = CONFIGURATION_TABLE[level];
        goodMatch = config[0];
        maxLazyMatch = config[1];
        niceMatch = config[2];
        maxChainLength = config[3];
    }

    private void clearHash() {
        Arrays.fill(head, (char) 0);
    }

    /** slide_hash(). */
    private void slideHash() {
        int wsize = wSize;
        // max(m - wsize, 0) is zlib's (m >= wsize ? m - wsize : NIL) in a form the JIT vectorises.
        char[] h = head;
        for (int n = 0; n < h.length; n++) {
            h[n] = (char) Math.max(h[n] - wsize, 0);
        }
        char[] p = prev;
        for (int n = 0; n < wsize; n++) {
            p[n] = (char) Math.max(p[n] - wsize, 0);
        }
    }

    /** deflateParams(). */
    void params(int newLevel, ZlibStrategy newStrategy) {
        int func = CONFIGURATION_TABLE[level][4];
        if ((newStrategy != strategy || func != CONFIGURATION_TABLE[newLevel][4]) && lastFlush != RESET_FLUSH) {
            deflate(BLOCK);
            if (availIn != 0 || (strstart - blockStart) + lookahead != 0) {
                throw new IllegalStateException("deflateParams: input left unflushed (zlib's Z_BUF_ERROR)");
            }
        }
        if (level != newLevel) {
            if (level == 0 && matches != 0) {
                if (matches == 1) {
                    slideHash();
                } else {
                    clearHash();
                }
                matches = 0;
            }
            level = newLevel;
            applyConfiguration();
        }
        strategy = newStrategy;
    }

    /** deflateSetDictionary() for a raw stream. */
    void setDictionary(byte[] dictionary, int offset, int dictLength) {
        if (lookahead != 0) {
            throw new IllegalStateException("deflateSetDictionary: input pending (zlib's Z_STREAM_ERROR)");
        }
        if (dictLength >= wSize) {
            clearHash();
            strstart = 0;
            blockStart = 0;
            insert = 0;
            offset += dictLength - wSize;
            dictLength = wSize;
        }
        byte[] savedIn = nextIn;
        int savedPos = nextInPos;
        int savedAvail = availIn;
        nextIn = dictionary;
        nextInPos = offset;
        availIn = dictLength;
        fillWindow();
        while (lookahead >= MIN_MATCH) {
            int n = lookahead - (MIN_MATCH - 1);
            insertStrings(strstart, strstart + n);
            strstart += n;
            lookahead = MIN_MATCH - 1;
            fillWindow();
        }
        strstart += lookahead;
        blockStart = strstart;
        insert = lookahead;
        lookahead = 0;
        matchLength = prevLength = MIN_MATCH - 1;
        matchAvailable = false;
        nextIn = savedIn;
        nextInPos = savedPos;
        availIn = savedAvail;
    }

    /** deflatePending(): the bits not yet written as a byte. */
    int pendingBits() {
        out.flushBits();
        return out.bitCount();
    }

    @Override
    public int flushWholeBytes() {
        out.flushPending();
        return out.bitCount();
    }

    @Override
    public void endSegment() {
        out.windup();
        out.flushPending();
    }

    /** deflatePrime(): inserts {@code bits} (0..16) low bits of {@code value} into the output. */
    void prime(int bits, int value) {
        if (bits < 0 || bits > 16) {
            throw new IllegalArgumentException("deflatePrime takes 0..16 bits, got " + bits);
        }
        out.sendBits(value & ((1 << bits) - 1), bits);
        out.flushBits();
    }

    /** deflate(): compresses all of {@code data[offset, offset + length)} with the given flush. */
    void deflate(byte[] data, int offset, int length, int flush) {
        nextIn = data;
        nextInPos = offset;
        availIn = length;
        deflate(flush);
        nextIn = null;
    }

    private void deflate(int flush) {
        if (finished && flush != FINISH) {
            throw new IllegalStateException("deflate stream already finished");
        }
        if (stopped != null) {
            throw new IllegalStateException("the segment stopped at its block boundary " + stopped);
        }
        int oldFlush = lastFlush;
        lastFlush = flush;

        if (out.hasPendingBytes()) {
            out.flushPending();
        } else if (availIn == 0 && ZlibFlush.rank(flush) <= ZlibFlush.rank(oldFlush) && flush != FINISH) {
            return; // zlib's Z_BUF_ERROR: nothing to do, not even a repeated flush marker
        }
        if (finished && availIn != 0) {
            throw new IllegalStateException("input after the deflate stream was finished");
        }

        if (availIn != 0 || lookahead != 0 || (flush != NO_FLUSH && !finished)) {
            int bstate;
            if (level == 0) {
                bstate = deflateStored(flush);
            } else if (strategy == ZlibStrategy.HUFFMAN_ONLY) {
                bstate = deflateHuff(flush);
            } else if (strategy == ZlibStrategy.RLE) {
                bstate = deflateRle(flush);
            } else if (CONFIGURATION_TABLE[level][4] == 1) {
                bstate = deflateFast(flush);
            } else {
                bstate = deflateSlow(flush);
            }

            if (bstate == FINISH_STARTED || bstate == FINISH_DONE) {
                finished = true;
            }
            if (bstate == NEED_MORE || bstate == FINISH_STARTED) {
                return;
            }
            if (bstate == BLOCK_DONE) {
                if (flush == PARTIAL_FLUSH) {
                    trees.align();
                } else if (flush != BLOCK) {
                    trees.storedBlock(null, 0, 0, false);
                    if (flush == FULL_FLUSH) {
                        clearHash();
                        if (lookahead == 0) {
                            strstart = 0;
                            blockStart = 0;
                            insert = 0;
                        }
                    }
                }
                out.flushPending();
            }
        }
    }

    /** read_buf(). */
    private int readBuf(byte[] dest, int destPos, int size) {
        int len = Math.min(availIn, size);
        if (len == 0) {
            return 0;
        }
        System.arraycopy(nextIn, nextInPos, dest, destPos, len);
        nextInPos += len;
        availIn -= len;
        return len;
    }

    /** fill_window(). */
    private void fillWindow() {
        int wsize = wSize;
        do {
            int more = windowSize - lookahead - strstart;
            if (strstart >= wsize + maxDist()) {
                if (verified != null) {
                    verified.beforeSlide(window, windowBase);
                }
                System.arraycopy(window, wsize, window, 0, wsize - more);
                windowBase += wsize;
                matchStart -= wsize;
                strstart -= wsize;
                blockStart -= wsize;
                if (insert > strstart) {
                    insert = strstart;
                }
                slideHash();
                more += wsize;
            }
            if (availIn == 0) {
                break;
            }
            int n = readBuf(window, strstart + lookahead, more);
            lookahead += n;

            if (lookahead + insert >= MIN_MATCH) {
                int str = strstart - insert;
                insH = window[str] & 0xff;
                insH = ((insH << hashShift) ^ (window[str + 1] & 0xff)) & hashMask;
                while (insert != 0) {
                    insH = ((insH << hashShift) ^ (window[str + MIN_MATCH - 1] & 0xff)) & hashMask;
                    prev[str & wMask] = head[insH];
                    head[insH] = (char) str;
                    str++;
                    insert--;
                    if (lookahead + insert < MIN_MATCH) {
                        break;
                    }
                }
            }
        } while (lookahead < MIN_LOOKAHEAD && availIn != 0);
    }

    private int maxDist() {
        return wSize - MIN_LOOKAHEAD;
    }

    /** INSERT_STRING(): returns the previous head of the hash chain. */
    private int insertString(int str) {
        int h = ((insH << hashShift) ^ (window[str + MIN_MATCH - 1] & 0xff)) & hashMask;
        insH = h;
        char matchHead = head[h];
        prev[str & wMask] = matchHead;
        head[h] = (char) str;
        return matchHead;
    }

    /**
     * INSERT_STRING() for every position in {@code [from, to)}, as deflate_fast and deflate_slow insert
     * the rest of a match and deflateSetDictionary() a dictionary: with the hash and the tables in
     * locals and the bound computed once, not a field written and a bound tested per position.
     */
    private void insertStrings(int from, int to) {
        byte[] w = window;
        char[] chainPrev = prev;
        char[] chainHead = head;
        int shift = hashShift;
        int mask = hashMask;
        int wmask = wMask;
        int h = insH;
        for (int str = from; str < to; str++) {
            h = ((h << shift) ^ (w[str + MIN_MATCH - 1] & 0xff)) & mask;
            chainPrev[str & wmask] = chainHead[h];
            chainHead[h] = (char) str;
        }
        insH = h;
    }

    /** FLUSH_BLOCK_ONLY(). */
    private void flushBlock(boolean last) {
        trees.flushBlock(level, strategy, blockStart >= 0 ? window : null, blockStart, strstart - blockStart, last);
        blockStart = strstart;
        out.flushPending();
    }

    /** longest_match(). */
    private int longestMatch(int curMatch) {
        int chainLength = maxChainLength;
        byte[] w = window;
        int scan = strstart;
        int bestLen = prevLength;
        int nice = niceMatch;
        int limit = strstart > maxDist() ? strstart - maxDist() : 0;
        char[] prv = prev;
        int wmask = wMask;
        // zlib's four byte tests (match[best_len], match[best_len-1], match[0], match[1]) as two pairs
        short scanEnd = MatchBytes.pair(w, scan + bestLen - 1);
        short scanStart = MatchBytes.pair(w, scan);

        if (prevLength >= goodMatch) {
            chainLength >>>= 2;
        }
        if (nice > lookahead) {
            nice = lookahead;
        }
        do {
            int match = curMatch;
            if (MatchBytes.pair(w, match + bestLen - 1) != scanEnd || MatchBytes.pair(w, match) != scanStart) {
                continue;
            }
            // Byte 2 is not compared: equal hashes and equal bytes 0 and 1 imply it (zlib relies on it too).
            int len = MIN_MATCH + MatchBytes.commonPrefix(w, scan + MIN_MATCH, match + MIN_MATCH, MAX_MATCH - MIN_MATCH);
            if (len > bestLen) {
                matchStart = curMatch;
                bestLen = len;
                if (len >= nice) {
                    break;
                }
                scanEnd = MatchBytes.pair(w, scan + bestLen - 1);
            }
        } while ((curMatch = prv[curMatch & wmask]) > limit && --chainLength != 0);

        return Math.min(bestLen, lookahead);
    }

    /** deflate_stored(), with unlimited output space. */
    private int deflateStored(int flush) {
        int minBlock = Math.min(pendingBufSize - 5, wSize);
        boolean last = false;
        int used = availIn;
        int len;
        int left;
        do {
            len = MAX_STORED;
            left = strstart - blockStart;
            if (len > (long) left + availIn) {
                len = left + availIn;
            }
            if (len < minBlock && ((len == 0 && flush != FINISH) || flush == NO_FLUSH || len != left + availIn)) {
                break;
            }
            last = flush == FINISH && len == left + availIn;
            // zlib writes a dummy stored header then patches its lengths; the bytes are the same.
            out.sendBits(last ? 1 : 0, 3);
            out.windup();
            out.putShort(len);
            out.putShort(~len & 0xffff);
            out.flushPending();
            if (left != 0) {
                if (left > len) {
                    left = len;
                }
                out.putBytes(window, blockStart, left);
                blockStart += left;
                len -= left;
            }
            if (len != 0) {
                out.putBytes(nextIn, nextInPos, len);
                nextInPos += len;
                availIn -= len;
            }
            // zlib copies these bytes straight to next_out, so they must not linger as pending.
            out.flushPending();
        } while (!last);

        used -= availIn;
        if (used != 0) {
            if (used >= wSize) {
                matches = 2;
                System.arraycopy(nextIn, nextInPos - wSize, window, 0, wSize);
                strstart = wSize;
                insert = strstart;
            } else {
                if (windowSize - strstart <= used) {
                    strstart -= wSize;
                    System.arraycopy(window, wSize, window, 0, strstart);
                    if (matches < 2) {
                        matches++;
                    }
                    if (insert > strstart) {
                        insert = strstart;
                    }
                }
                System.arraycopy(nextIn, nextInPos - used, window, strstart, used);
                strstart += used;
                insert += Math.min(used, wSize - insert);
            }
            blockStart = strstart;
        }
        if (last) {
            return FINISH_DONE;
        }
        if (flush != NO_FLUSH && flush != FINISH && availIn == 0 && strstart == blockStart) {
            return BLOCK_DONE;
        }

        int have = windowSize - strstart;
        if (availIn > have && blockStart >= wSize) {
            blockStart -= wSize;
            strstart -= wSize;
            System.arraycopy(window, wSize, window, 0, strstart);
            if (matches < 2) {
                matches++;
            }
            have += wSize;
            if (insert > strstart) {
                insert = strstart;
            }
        }
        if (have > availIn) {
            have = availIn;
        }
        if (have != 0) {
            readBuf(window, strstart, have);
            strstart += have;
            insert += Math.min(have, wSize - insert);
        }

        have = (out.bitCount() + 42) >> 3;
        have = Math.min(pendingBufSize - have, MAX_STORED);
        minBlock = Math.min(have, wSize);
        left = strstart - blockStart;
        if (left >= minBlock || ((left != 0 || flush == FINISH) && flush != NO_FLUSH && availIn == 0 && left <= have)) {
            len = Math.min(left, have);
            last = flush == FINISH && availIn == 0 && len == left;
            trees.storedBlock(window, blockStart, len, last);
            blockStart += len;
            out.flushPending();
        }
        return last ? FINISH_STARTED : NEED_MORE;
    }

    /** deflate_fast(): levels 1 to 3, no lazy matching. */
    private int deflateFast(int flush) {
        for (;;) {
            if (warmUntil >= 0 && windowBase + strstart >= warmUntil) {
                endWarmUp();
            }
            if (pauseAt >= 0 && windowBase + strstart >= pauseAt) {
                return NEED_MORE;
            }
            if (lookahead < MIN_LOOKAHEAD) {
                fillWindow();
                if (lookahead < MIN_LOOKAHEAD && flush == NO_FLUSH) {
                    return NEED_MORE;
                }
                if (lookahead == 0) {
                    break;
                }
            }
            if (verified != null && flush == NO_FLUSH && verified.compareAt(windowBase + strstart) && compareWithShadow()) {
                return NEED_MORE;
            }
            int hashHead = 0;
            if (lookahead >= MIN_MATCH) {
                hashHead = insertString(strstart);
            }
            if (hashHead != 0 && strstart - hashHead <= maxDist()) {
                matchLength = longestMatch(hashHead);
            }
            // A warm-up only finds tokens: they are the previous segment's.
            boolean warmingUp = warmUntil >= 0;
            boolean bflush;
            if (matchLength >= MIN_MATCH) {
                bflush = !warmingUp && trees.tallyDist(strstart - matchStart, matchLength - MIN_MATCH);
                lookahead -= matchLength;
                if (matchLength <= maxLazyMatch && lookahead >= MIN_MATCH) {
                    insertStrings(strstart + 1, strstart + matchLength);
                    strstart += matchLength;
                    matchLength = 0;
                } else {
                    strstart += matchLength;
                    matchLength = 0;
                    insH = window[strstart] & 0xff;
                    insH = ((insH << hashShift) ^ (window[strstart + 1] & 0xff)) & hashMask;
                }
            } else {
                bflush = !warmingUp && trees.tallyLit(window[strstart] & 0xff);
                lookahead--;
                strstart++;
            }
            if (bflush) {
                flushBlock(false);
                if (stopReached(flush)) {
                    return NEED_MORE;
                }
            }
        }
        insert = Math.min(strstart, MIN_MATCH - 1);
        return finishBlock(flush);
    }

    /** The common ending of deflate_fast, deflate_slow, deflate_rle and deflate_huff. */
    private int finishBlock(int flush) {
        if (flush == FINISH) {
            flushBlock(true);
            return FINISH_DONE;
        }
        if (trees.hasSymbols()) {
            flushBlock(false);
        }
        return BLOCK_DONE;
    }

    /** deflate_slow(): levels 4 to 9, lazy matching. */
    private int deflateSlow(int flush) {
        for (;;) {
            if (lookahead < MIN_LOOKAHEAD) {
                fillWindow();
                if (lookahead < MIN_LOOKAHEAD && flush == NO_FLUSH) {
                    return NEED_MORE;
                }
                if (lookahead == 0) {
                    break;
                }
            }
            int hashHead = 0;
            if (lookahead >= MIN_MATCH) {
                hashHead = insertString(strstart);
            }
            prevLength = matchLength;
            prevMatch = matchStart;
            matchLength = MIN_MATCH - 1;

            if (hashHead != 0 && prevLength < maxLazyMatch && strstart - hashHead <= maxDist()) {
                matchLength = longestMatch(hashHead);
                if (matchLength <= 5 && (strategy == ZlibStrategy.FILTERED
                        || (matchLength == MIN_MATCH && strstart - matchStart > TOO_FAR))) {
                    matchLength = MIN_MATCH - 1;
                }
            }
            if (prevLength >= MIN_MATCH && matchLength <= prevLength) {
                int maxInsert = strstart + lookahead - MIN_MATCH;
                boolean bflush = trees.tallyDist(strstart - 1 - prevMatch, prevLength - MIN_MATCH);
                lookahead -= prevLength - 1;
                int matchEnd = strstart + prevLength - 2;
                insertStrings(strstart + 1, Math.min(matchEnd, maxInsert) + 1);
                strstart = matchEnd;
                prevLength = 0;
                matchAvailable = false;
                matchLength = MIN_MATCH - 1;
                strstart++;
                if (bflush) {
                    flushBlock(false);
                    if (stopReached(flush)) {
                        return NEED_MORE;
                    }
                }
            } else if (matchAvailable) {
                if (trees.tallyLit(window[strstart - 1] & 0xff)) {
                    flushBlock(false);
                    // Here strstart is already in the hash chains and its match pending.
                    if (stopReached(flush)) {
                        return NEED_MORE;
                    }
                }
                strstart++;
                lookahead--;
            } else {
                matchAvailable = true;
                strstart++;
                lookahead--;
            }
        }
        if (matchAvailable) {
            trees.tallyLit(window[strstart - 1] & 0xff);
            matchAvailable = false;
        }
        insert = Math.min(strstart, MIN_MATCH - 1);
        return finishBlock(flush);
    }

    /** Whether a block that just ended (without a flush asked) is the segment's end: then records the state there. */
    private boolean stopReached(int flush) {
        if (flush != NO_FLUSH || windowBase + strstart < stopFrom) {
            return false;
        }
        if (verified != null) {
            return checkBoundary();
        }
        stopped = LazyRestartState.at(windowBase, strstart, matchAvailable, matchLength, matchStart);
        return true;
    }

    /** deflate_rle(): runs of one byte, matches of distance one only. */
    private int deflateRle(int flush) {
        byte[] w = window;
        for (;;) {
            if (lookahead <= MAX_MATCH) {
                fillWindow();
                if (lookahead <= MAX_MATCH && flush == NO_FLUSH) {
                    return NEED_MORE;
                }
                if (lookahead == 0) {
                    break;
                }
            }
            matchLength = 0;
            if (lookahead >= MIN_MATCH && strstart > 0) {
                int scan = strstart - 1;
                byte prevByte = w[scan];
                if (prevByte == w[scan + 1] && prevByte == w[scan + 2] && prevByte == w[scan + 3]) {
                    // zlib scans to strstart + MAX_MATCH in steps of 8 past the first three.
                    int strend = strstart + MAX_MATCH;
                    scan += 3;
                    do {
                        int stop = scan + 8;
                        while (scan < stop && prevByte == w[scan + 1]) {
                            scan++;
                        }
                        if (scan < stop) {
                            scan++;
                            break;
                        }
                    } while (scan < strend);
                    matchLength = MAX_MATCH - (strend - scan);
                    if (matchLength > lookahead) {
                        matchLength = lookahead;
                    }
                }
            }
            boolean bflush;
            if (matchLength >= MIN_MATCH) {
                bflush = trees.tallyDist(1, matchLength - MIN_MATCH);
                lookahead -= matchLength;
                strstart += matchLength;
                matchLength = 0;
            } else {
                bflush = trees.tallyLit(w[strstart] & 0xff);
                lookahead--;
                strstart++;
            }
            if (bflush) {
                flushBlock(false);
            }
        }
        insert = 0;
        return finishBlock(flush);
    }

    /** deflate_huff(): literals only. */
    private int deflateHuff(int flush) {
        for (;;) {
            if (lookahead == 0) {
                fillWindow();
                if (lookahead == 0) {
                    if (flush == NO_FLUSH) {
                        return NEED_MORE;
                    }
                    break;
                }
            }
            matchLength = 0;
            boolean bflush = trees.tallyLit(window[strstart] & 0xff);
            lookahead--;
            strstart++;
            if (bflush) {
                flushBlock(false);
            }
        }
        insert = 0;
        return finishBlock(flush);
    }
}
