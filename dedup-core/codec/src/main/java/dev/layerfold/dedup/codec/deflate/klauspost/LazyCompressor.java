package dev.layerfold.dedup.codec.deflate.klauspost;

import java.io.IOException;
import java.util.Arrays;

/**
 * Levels 7 to 9: hash chains with lazy matching over a 64 KiB window, Go 1.27's
 * {@code fillDeflate}, {@code findMatch}, {@code tryBetterMatchAtEnd}, {@code skipLiterals} and
 * {@code deflateLazy} in {@code compress/flate/deflate.go}. Level 9 also weighs each match
 * against the bits its literals would cost, with a Huffman code made from the window's bytes.
 * klauspost/compress 1.15.12 weighs and extends matches the older way ({@link FlateRelease#olderLazyMatching}).
 *
 * <p>For restart points ({@link Go127LazySegmentEncoder}) it notes, at each block boundary it can be
 * resumed at, its state there ({@link Go127LazyRestartState}), and may stop at the first such boundary
 * past a given offset whose open table was headed at most {@link Go127LazySegmentEncoder#MAX_REPLAY}
 * bytes before.
 */
final class LazyCompressor extends Compressor {

    private static final int LOG_WINDOW_SIZE = 15;
    private static final int WINDOW_SIZE = 1 << LOG_WINDOW_SIZE;
    private static final int WINDOW_MASK = WINDOW_SIZE - 1;
    private static final int MIN_MATCH_LENGTH = 4;
    private static final int MAX_MATCH_LENGTH = 258;
    private static final int MAX_FLATE_BLOCK_TOKENS = 1 << 15;
    private static final int HASH_BITS = 17;
    private static final int HASH_SIZE = 1 << HASH_BITS;
    private static final int MAX_HASH_OFFSET = 1 << 28;
    private static final int CHECK_OFF = 2;
    private static final int BASE_COST = 3;
    private static final int OLDER_BASE_COST = 6;
    private static final int MIN_GAIN = 4;

    /** good, lazy, nice, chain per level 7, 8, 9 (Go's {@code levels}). */
    private static final int[][] LEVELS = {{8, 12, 16, 24}, {16, 30, 40, 64}, {32, 258, 258, 1024}};

    private final int lazy;
    private final int nice;
    private final int chain;
    private final int literalFloor;
    private final boolean olderMatching;
    private final boolean pricesWholeWindow;
    private final boolean dictionaryOutsideFirstBlock;

    private final byte[] window = new byte[2 * WINDOW_SIZE];
    private int windowEnd;
    private int blockStart;
    private boolean byteAvailable;
    /** Levels 7 to 9 make no match over 258 bytes, so how one is cut never matters here. */
    private final Tokens tokens = new Tokens(false);
    private HuffmanEncoder literalCosts;
    private final int[] byteCounts = new int[256];

    private int length;
    private int offset;
    private int maxInsertIndex;
    private int chainHead;
    private int hashOffset;
    private int literalCounter;
    /** While skipping literals ahead: how many are left, the last one included; else 0. */
    private int skipping;
    private int index;
    private final int[] hashHead = new int[HASH_SIZE];
    private final int[] hashPrev = new int[WINDOW_SIZE];

    /** The input offset of {@code window[0]}. */
    private long windowStart;
    /** Where the step under way began: level 9 priced literals by the window from there. */
    private int stepStart;
    /** Whether the step under way stopped at a restart point (or was resumed at one) and goes on without starting afresh. */
    private boolean midStep;
    /** Whether a block ended in the loop's current iteration. */
    private boolean blockEnded;
    /** The state where the block being filled began, if that boundary can be resumed at, else null. */
    private Go127LazyRestartState blockStartState;
    /** The state where the block that headed the open table began, if that boundary can be resumed at, else null. */
    private Go127LazyRestartState opener;
    /** {@link #step} stops at the first restart point at this input offset or later. */
    private long stopAt = Long.MAX_VALUE;
    /** The restart point where {@link #step} stopped, or null. */
    private Go127LazyRestartState stopped;
    /** Window positions {@code [rebuildFrom, rebuildTo)} still to be inserted into the hash chains after a resume. */
    private int rebuildFrom;
    private int rebuildTo;

    LazyCompressor(HuffmanBitWriter w, int level, FlateRelease release) {
        super(w);
        this.literalFloor = release.literalFloor;
        this.olderMatching = release.olderLazyMatching;
        this.pricesWholeWindow = release.pricesWholeWindow;
        this.dictionaryOutsideFirstBlock = release.dictionaryOutsideFirstBlock;
        int[] tuning = LEVELS[level - 7];
        this.lazy = tuning[1];
        this.nice = tuning[2];
        this.chain = tuning[3];
        reset();
    }

    @Override
    void reset() {
        chainHead = -1;
        Arrays.fill(hashHead, 0);
        Arrays.fill(hashPrev, 0);
        hashOffset = 1;
        index = 0;
        windowEnd = 0;
        blockStart = 0;
        byteAvailable = false;
        tokens.reset();
        length = MIN_MATCH_LENGTH - 1;
        offset = 0;
        literalCounter = 0;
        skipping = 0;
        maxInsertIndex = 0;
        windowStart = 0;
        stepStart = 0;
        midStep = false;
        blockEnded = false;
        blockStartState = new Go127LazyRestartState(0, 0, 0, false, length, offset, 0, 0, 0);
        opener = null;
        stopAt = Long.MAX_VALUE;
        stopped = null;
        rebuildFrom = 0;
        rebuildTo = 0;
    }

    /**
     * Continues a stream at the block boundary {@code state.opener()}: {@code history[offset..offset+length)}
     * is the input right before it, from the window's start on. The hash chains are rebuilt by
     * inserting every position of the last 32 KiB in order, as levels 7 to 9 did (entries older than
     * that are beyond every later search's reach); the insertion waits for the first step, since the
     * last positions hash bytes after the point. The step under way goes on, pricing literals from
     * where it began. Only for a fresh compressor.
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary
     */
    void resume(byte[] history, int offset, int length, Go127LazyRestartState state) {
        long at = state.opener() - state.windowStart();
        long resumedIndex = at + (state.byteAvailable() ? 1 : 0);
        long step = state.stepStart() - state.windowStart();
        if (at < 0 || resumedIndex >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) || state.windowStart() < 0
                || state.windowStart() % WINDOW_SIZE != 0 || length != at || step < 0 || step > resumedIndex
                || state.length() < MIN_MATCH_LENGTH - 1 || state.length() > MAX_MATCH_LENGTH || state.offset() < 0 || state.offset() > WINDOW_SIZE
                || state.length() >= MIN_MATCH_LENGTH && state.offset() == 0
                || state.literalCounter() < 0 || state.literalCounter() > 0xffff
                || state.skipping() < 0 || state.skipping() > 2 + (0xffff >> 6) || state.skipping() > 0 && !state.byteAvailable()) {
            throw new IllegalArgumentException("not a block boundary of Go 1.27's levels 7 to 9 with " + length + " bytes of window: " + state);
        }
        reset();
        windowStart = state.windowStart();
        System.arraycopy(history, offset, window, 0, length);
        windowEnd = length;
        blockStart = length;
        byteAvailable = state.byteAvailable();
        index = (int) resumedIndex;
        this.length = state.length();
        this.offset = state.offset();
        literalCounter = state.literalCounter();
        skipping = state.skipping();
        stepStart = (int) step;
        midStep = true;
        blockStartState = state.at(state.opener());
        rebuildFrom = Math.max(index - WINDOW_SIZE, 0);
        rebuildTo = index;
    }

    /** From now on, {@link #step} stops at the first restart point at input offset {@code offset} or later. */
    void stopAt(long offset) {
        stopAt = offset;
    }

    /** The restart point where {@link #step} stopped, or null while it has not. */
    Go127LazyRestartState stopped() {
        return stopped;
    }

    /** Goes on past the restart point it stopped at, stopping next at the first at input offset {@code offset} or later. */
    void goOn(long offset) {
        stopped = null;
        stopAt = offset;
    }

    /** The input offset of {@code window[windowEnd]}: how much input was filled in. */
    long filled() {
        return windowStart + windowEnd;
    }

    @Override
    void fillWindow(byte[] dict, int offset, int length) {
        int keep = Math.min(length, WINDOW_SIZE);
        int n = Math.min(keep, window.length - windowEnd);
        System.arraycopy(dict, offset + length - keep, window, windowEnd, n);
        // Go hashes 256 positions at a time, each needing 4 bytes inside its slice of the window.
        int loops = (n + 256 - MIN_MATCH_LENGTH) / 256;
        for (int j = 0; j < loops; j++) {
            int start = j * 256;
            int end = Math.min(start + 256 + MIN_MATCH_LENGTH - 1, n);
            for (int di = start; di + MIN_MATCH_LENGTH <= end; di++) {
                int h = hash4(window, di);
                hashPrev[di & WINDOW_MASK] = hashHead[h];
                hashHead[h] = di + hashOffset;
            }
        }
        windowEnd += n;
        index = n;
        // Go 1.27.3 (go.dev/issue/80538): a stored first block must not hold the dictionary.
        if (dictionaryOutsideFirstBlock) {
            blockStart = windowEnd;
        }
    }

    @Override
    boolean full() {
        return windowEnd == window.length;
    }

    @Override
    int fill(byte[] b, int off, int len) {
        if (index >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH)) {
            System.arraycopy(window, WINDOW_SIZE, window, 0, WINDOW_SIZE);
            index -= WINDOW_SIZE;
            windowEnd -= WINDOW_SIZE;
            blockStart = blockStart >= WINDOW_SIZE ? blockStart - WINDOW_SIZE : Integer.MAX_VALUE;
            windowStart += WINDOW_SIZE;
            hashOffset += WINDOW_SIZE;
            if (hashOffset > MAX_HASH_OFFSET) {
                int delta = hashOffset - 1;
                hashOffset -= delta;
                chainHead -= delta;
                for (int i = 0; i < hashPrev.length; i++) {
                    hashPrev[i] = Math.max(hashPrev[i] - delta, 0);
                }
                for (int i = 0; i < hashHead.length; i++) {
                    hashHead[i] = Math.max(hashHead[i] - delta, 0);
                }
            }
        }
        int n = Math.min(len, window.length - windowEnd);
        System.arraycopy(b, off, window, windowEnd, n);
        windowEnd += n;
        return n;
    }

    private void writeBlock(int at, boolean sync) throws IOException {
        if (at > 0) {
            byte[] input = null;
            int from = 0;
            if (blockStart <= at) {
                input = window;
                from = blockStart;
            }
            blockStart = at;
            int opened = w.tablesOpened();
            w.writeBlockDynamic(tokens, false, input, from, input == null ? 0 : at - from, sync);
            if (w.tablesOpened() != opened) {
                opener = blockStartState;
            }
            blockStartState = null;
            blockEnded = true;
        }
    }

    /**
     * At the end of a loop iteration (or of a skipped literal): notes the block boundary passed in
     * it, if a resume there can go on as this does, and returns true if it is the restart point to
     * stop at. A boundary can be resumed at if the iteration ended with it (no token since, the
     * encoder at the byte after it or at the byte after it with that byte pending) before the
     * window's last match length, whose input slides the window before the next byte.
     */
    private boolean stopsAtBoundary(boolean sync) {
        if (!blockEnded) {
            return false;
        }
        blockEnded = false;
        if (sync || tokens.n != 0 || index >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH)
                || index != blockStart + (byteAvailable ? 1 : 0)) {
            return false;
        }
        long input = windowStart + blockStart;
        blockStartState = new Go127LazyRestartState(input, input, windowStart, byteAvailable, length, offset, literalCounter, skipping,
                windowStart + stepStart);
        Go127LazyRestartState point = !w.tableOpen() ? blockStartState : opener == null ? null : opener.at(input);
        if (point == null || input < stopAt || input - point.opener() > Go127LazySegmentEncoder.MAX_REPLAY) {
            return false;
        }
        stopped = point;
        midStep = true;
        return true;
    }

    private void rebuildChains() {
        for (int i = rebuildFrom; i < rebuildTo; i++) {
            int h = hash4(window, i);
            hashPrev[i & WINDOW_MASK] = hashHead[h];
            hashHead[h] = i + hashOffset;
        }
        rebuildFrom = rebuildTo;
    }

    private static int hash4(byte[] b, int i) {
        return FastEncoder.hash4(FastEncoder.load32(b, i), HASH_BITS);
    }

    private void insert(int at) {
        int h = hash4(window, at);
        int ch = hashHead[h];
        chainHead = ch;
        hashPrev[at & WINDOW_MASK] = ch;
        hashHead[h] = at + hashOffset;
    }

    /** Go's {@code findMatch}; returns {@code length << 32 | offset}, or -1 if none. */
    private long findMatch(int pos, int prevHead, int lookahead) {
        int minMatchLook = Math.min(lookahead, MAX_MATCH_LENGTH);
        int winEnd = pos + minMatchLook;
        int niceLength = Math.min(nice, winEnd - pos);
        int tries = chain;
        int len = MIN_MATCH_LENGTH - 1;
        byte wEnd = window[pos + len];
        int minIndex = Math.max(pos - WINDOW_SIZE, 0);
        int off = 0;
        boolean ok = false;
        int cGain = olderMatching ? 0 : MIN_GAIN;
        int baseCost = olderMatching ? OLDER_BASE_COST : BASE_COST;
        for (int i = prevHead; tries > 0; tries--) {
            if (wEnd == window[i + len]) {
                int n = FastEncoder.matchLen(window, pos, winEnd, i);
                if (n > len) {
                    boolean accept = true;
                    if (chain >= 100) {
                        int newGain = literalCosts.bitLengthRaw(window, pos, pos + n, literalFloor)
                                - Tokens.OFFSET_EXTRA_BITS[Tokens.offsetCode(pos - i)] - baseCost
                                - Tokens.LENGTH_EXTRA_BITS[Tokens.LENGTH_CODES[(n - 3) & 255]];
                        if (newGain <= cGain) {
                            accept = false;
                        } else {
                            cGain = newGain;
                        }
                    }
                    if (accept) {
                        len = n;
                        off = pos - i;
                        ok = true;
                        if (n >= niceLength) {
                            break;
                        }
                        wEnd = window[pos + n];
                    }
                }
            }
            if (i <= minIndex) {
                break;
            }
            i = hashPrev[i & WINDOW_MASK] - hashOffset;
            if (i < minIndex) {
                break;
            }
        }
        return ok ? (long) len << 32 | off : -1;
    }

    /** Go's {@code tryBetterMatchAtEnd}; returns {@code length << 32 | offset}. */
    private long tryBetterMatchAtEnd(int prevLength, int prevOffset, int lookahead, boolean sync) throws IOException {
        long unchanged = (long) prevLength << 32 | prevOffset;
        if (prevLength >= MAX_MATCH_LENGTH - CHECK_OFF) {
            return unchanged;
        }
        int prevIndex = index - 1;
        if (prevIndex + prevLength >= maxInsertIndex) {
            return unchanged;
        }
        int end = Math.min(lookahead, MAX_MATCH_LENGTH + CHECK_OFF) + prevIndex;
        int minIndex = Math.max(index - WINDOW_SIZE, 0);
        int h = hash4(window, prevIndex + prevLength);
        int ch2 = hashHead[h] - hashOffset - prevLength;
        if (prevIndex - ch2 == prevOffset || ch2 <= minIndex + CHECK_OFF) {
            return unchanged;
        }
        int len = FastEncoder.matchLen(window, prevIndex + CHECK_OFF, end, ch2 + CHECK_OFF);
        if (len <= prevLength) {
            return unchanged;
        }
        prevLength = len;
        prevOffset = prevIndex - ch2;
        for (int i = CHECK_OFF - 1; i >= 0; i--) {
            if (prevLength >= MAX_MATCH_LENGTH || window[prevIndex + i] != window[ch2 + i]) {
                for (int j = 0; j < i + 1; j++) {
                    tokens.addLiteral(window[prevIndex + j] & 0xff);
                    if (tokens.n == MAX_FLATE_BLOCK_TOKENS) {
                        writeBlock(index, sync);
                        tokens.reset();
                    }
                    index++;
                    if (index < maxInsertIndex) {
                        insert(index);
                    }
                }
                break;
            }
            prevLength++;
        }
        return (long) prevLength << 32 | prevOffset;
    }

    /**
     * klauspost/compress 1.15.12's look at the match's end: the latest position whose 4 bytes hash
     * like the 4 ending 2 bytes before the match's end, taken if it matches longer from the start.
     */
    private long olderMatchAtEnd(int prevLength, int prevOffset, int lookahead) {
        long unchanged = (long) prevLength << 32 | prevOffset;
        int prevIndex = index - 1;
        if (prevIndex + prevLength + CHECK_OFF >= maxInsertIndex) {
            return unchanged;
        }
        int end = Math.min(lookahead, MAX_MATCH_LENGTH) + prevIndex;
        int minIndex = Math.max(index - WINDOW_SIZE, 0);
        int ch2 = hashHead[hash4(window, prevIndex + prevLength - (4 - CHECK_OFF))] - hashOffset - prevLength + (4 - CHECK_OFF);
        if (ch2 <= minIndex) {
            return unchanged;
        }
        int len = FastEncoder.matchLen(window, prevIndex, end, ch2);
        return len > prevLength ? (long) len << 32 | (prevIndex - ch2) : unchanged;
    }

    /** Go's {@code skipLiterals}: past a long run of literals, emits more without searching. Returns true if it stopped at a restart point. */
    private boolean skipLiterals(boolean sync) throws IOException {
        int n = literalCounter - chain;
        if (n <= 0) {
            return false;
        }
        skipping = 2 + (n >> 6);
        return goOnSkipping(sync);
    }

    /**
     * Emits the literals {@link #skipping} says are left, then the last one; returns true if it
     * stopped at a restart point, a block boundary among them (where a block ended, the encoder
     * is at the byte after it with that byte pending, as after a literal of the main loop).
     */
    private boolean goOnSkipping(boolean sync) throws IOException {
        while (skipping > 1 && index < windowEnd - 1) {
            skipping--;
            tokens.addLiteral(window[index - 1] & 0xff);
            if (tokens.n == MAX_FLATE_BLOCK_TOKENS) {
                writeBlock(index, sync);
                tokens.reset();
            }
            if (index < maxInsertIndex) {
                insert(index);
            }
            index++;
            if (stopsAtBoundary(sync)) {
                return true;
            }
        }
        skipping = 0;
        tokens.addLiteral(window[index - 1] & 0xff);
        byteAvailable = false;
        if (tokens.n == MAX_FLATE_BLOCK_TOKENS) {
            writeBlock(index, sync);
            tokens.reset();
        }
        return false;
    }

    @Override
    void step(boolean sync) throws IOException {
        if (windowEnd - index < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH && !sync || stopped != null) {
            return;
        }
        if (rebuildFrom < rebuildTo) {
            rebuildChains();
        }
        if (!midStep) {
            stepStart = index;
        }
        midStep = false;
        if (windowEnd != stepStart && chain > 100) {
            if (literalCosts == null) {
                literalCosts = new HuffmanEncoder(MAX_FLATE_BLOCK_TOKENS);
            }
            Arrays.fill(byteCounts, 0);
            int to = pricesWholeWindow ? windowEnd : Math.min(windowEnd, stepStart + MAX_FLATE_BLOCK_TOKENS);
            for (int i = stepStart; i < to; i++) {
                byteCounts[window[i] & 0xff]++;
            }
            literalCosts.generate(byteCounts, 256, 15);
        }
        maxInsertIndex = windowEnd - (MIN_MATCH_LENGTH - 1);
        // Stopped (or resumed) among the literals skipped ahead: the rest of them first, as the loop's iteration would.
        if (skipping > 0 && (goOnSkipping(sync) || stopsAtBoundary(sync))) {
            return;
        }
        while (true) {
            int lookahead = windowEnd - index;
            if (lookahead < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) {
                if (!sync) {
                    return;
                }
                if (lookahead == 0) {
                    if (byteAvailable) {
                        tokens.addLiteral(window[index - 1] & 0xff);
                        byteAvailable = false;
                    }
                    if (tokens.n > 0) {
                        writeBlock(index, sync);
                        tokens.reset();
                    }
                    return;
                }
            }
            if (index < maxInsertIndex) {
                insert(index);
            }
            int prevLength = length;
            int prevOffset = offset;
            length = MIN_MATCH_LENGTH - 1;
            offset = 0;
            int minIndex = Math.max(index - WINDOW_SIZE, 0);
            if (chainHead - hashOffset >= minIndex && lookahead > prevLength && prevLength < lazy) {
                long match = findMatch(index, chainHead - hashOffset, lookahead);
                if (match >= 0) {
                    length = (int) (match >>> 32);
                    offset = (int) match;
                }
            }
            if (prevLength >= MIN_MATCH_LENGTH && length <= prevLength) {
                long better = olderMatching ? olderMatchAtEnd(prevLength, prevOffset, lookahead)
                        : tryBetterMatchAtEnd(prevLength, prevOffset, lookahead, sync);
                prevLength = (int) (better >>> 32);
                prevOffset = (int) better;
                tokens.addMatch(prevLength - 3, prevOffset - 1);
                int newIndex = index + prevLength - 1;
                int end = Math.min(newIndex, maxInsertIndex) + MIN_MATCH_LENGTH - 1;
                int start = Math.min(index + 1, maxInsertIndex);
                for (int di = start; di + MIN_MATCH_LENGTH <= end; di++) {
                    int h = hash4(window, di);
                    hashPrev[di & WINDOW_MASK] = hashHead[h];
                    hashHead[h] = di + hashOffset;
                }
                index = newIndex;
                byteAvailable = false;
                length = MIN_MATCH_LENGTH - 1;
                if (tokens.n == MAX_FLATE_BLOCK_TOKENS) {
                    writeBlock(index, sync);
                    tokens.reset();
                }
                literalCounter = 0;
                if (stopsAtBoundary(sync)) {
                    return;
                }
                continue;
            }
            if (length >= MIN_MATCH_LENGTH) {
                literalCounter = 0;
            }
            if (byteAvailable) {
                literalCounter = (literalCounter + 1) & 0xffff;
                tokens.addLiteral(window[index - 1] & 0xff);
                if (tokens.n == MAX_FLATE_BLOCK_TOKENS) {
                    writeBlock(index, sync);
                    tokens.reset();
                }
                index++;
                if (skipLiterals(sync)) {
                    return;
                }
            } else {
                index++;
                byteAvailable = true;
            }
            if (stopsAtBoundary(sync)) {
                return;
            }
        }
    }
}
