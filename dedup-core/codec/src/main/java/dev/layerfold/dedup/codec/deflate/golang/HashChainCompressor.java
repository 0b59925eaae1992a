package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.FastRestart;
import dev.layerfold.dedup.codec.deflate.TokenObserver;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Levels 2 to 9: LZ77 over a 32 KiB sliding window with hash chains, greedy at levels 2 and 3 and
 * lazy from level 4; Go's {@code fillDeflate}, {@code deflate}, {@code findMatch} and
 * {@code writeBlock} in {@code compress/flate/deflate.go}. It can also stop at a block boundary and
 * resume from one: the lazy levels hash every position, so the 32 KiB before a point rebuild their
 * chains; the greedy levels skip hashing inside long matches, so a warm-up over more input rebuilds
 * them ({@link FastRestart}), and the proof keeps only boundaries where a shadow saw it hold.
 */
final class HashChainCompressor extends Compressor {

    private static final int WINDOW_SIZE = 1 << 15;
    private static final int WINDOW_MASK = WINDOW_SIZE - 1;
    private static final int BASE_MATCH_LENGTH = 3;
    private static final int MIN_MATCH_LENGTH = 4;
    private static final int MAX_MATCH_LENGTH = 258;
    private static final int BASE_MATCH_OFFSET = 1;
    private static final int MAX_FLATE_BLOCK_TOKENS = 1 << 14;
    private static final int HASH_BITS = 17;
    private static final int HASH_SIZE = 1 << HASH_BITS;
    private static final int HASH_MASK = HASH_SIZE - 1;
    private static final int MAX_HASH_OFFSET = 1 << 24;
    private static final int HASH_MUL = 0x1e35a7bd;
    private static final VarHandle BE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final int SKIP_NEVER = Integer.MAX_VALUE;
    /** How many positions {@link #warm} reads ahead. */
    private static final int WARM_AHEAD = 32;
    /** A hashPrev distance beyond the window; every longer one is stored as this. */
    private static final int FAR = Character.MAX_VALUE;

    private final CompressionLevel level;

    /** Unprocessed input is {@code window[index..windowEnd)}. */
    private final byte[] window = new byte[2 * WINDOW_SIZE];
    private int index;
    private int windowEnd;
    /** Where the current block's tokens start; {@code Integer.MAX_VALUE} once slid out of the window. */
    private int blockStart;
    /** Lazy matching: {@code window[index-1]} is still to be emitted. */
    private boolean byteAvailable;

    /** The block's tokens, plus room for the end-of-block marker. */
    private final int[] tokens = new int[MAX_FLATE_BLOCK_TOKENS + 1];
    private int tokenCount;

    private int length;
    private int offset;

    // hashHead[h] is the latest input index (plus hashOffset) with hash h; hashPrev[i & WINDOW_MASK]
    // how far before i the one before it with the same hash is. Go keeps that one's index (plus
    // hashOffset) instead; a distance fits in 16 bits (clamped at FAR, beyond the window), which
    // halves the table the match search walks, and needs no rebasing.
    private int chainHead;
    private final int[] hashHead = new int[HASH_SIZE];
    private final char[] hashPrev = new char[WINDOW_SIZE];
    private int hashOffset;
    /** Where {@link #warm} leaves its reads. */
    private int warmed;
    /** Told each token as it is added, or null. */
    private TokenObserver observer;

    /** The input offset of {@code window[0]}. */
    private long windowStart;
    /** Where a restart segment ends: {@link #step} stops after the first block ending here or later. */
    private long stopAt = Long.MAX_VALUE;
    /** The state where {@link #step} stopped, or null. */
    private GoRestartState stopped;
    /** Window positions {@code [rebuildFrom, rebuildTo)} still to be inserted into the hash chains after a resume. */
    private int rebuildFrom;
    private int rebuildTo;
    /** A greedy level resumed from a point: until this input offset (the point) it warms the chains up, writing nothing; -1 after. */
    private long warmUntil = -1;
    /** A check's shadow stops stepping at this input offset, where the encoder it shadows is. */
    private long pauseAt = Long.MAX_VALUE;
    /** A greedy level for the proof: it ends a segment only at boundaries a shadow was seen to go on from as it does; null otherwise. */
    private FastRestart<HashChainCompressor, GoRestartState> verified;

    /** Why {@link #deflate} returned. */
    private enum Halt {
        /** It needs more input (or, syncing, wrote everything). */
        INPUT,
        /** It reached the index it was told to pause at. */
        PAUSE,
        /** A block ended at or past {@link #stopAt}. */
        BOUNDARY
    }

    HashChainCompressor(HuffmanBitWriter w, CompressionLevel level) {
        super(w);
        this.level = level;
        reset();
    }

    void observeTokens(TokenObserver observer) {
        this.observer = observer;
    }

    @Override
    void reset() {
        chainHead = -1;
        Arrays.fill(hashHead, 0);
        Arrays.fill(hashPrev, (char) FAR);
        hashOffset = 1;
        index = 0;
        windowEnd = 0;
        blockStart = 0;
        byteAvailable = false;
        tokenCount = 0;
        length = MIN_MATCH_LENGTH - 1;
        offset = 0;
        windowStart = 0;
        stopAt = Long.MAX_VALUE;
        stopped = null;
        rebuildFrom = 0;
        rebuildTo = 0;
        warmUntil = -1;
    }

    /**
     * Continues a stream at a block boundary: {@code history[offset..offset+length)} is the input
     * right before {@code state.input()} (at least its last 32 KiB, or all of it), and the window,
     * block start and lazy-match variables are set from {@code state}. The hash chains are rebuilt
     * by inserting every position of the last 32 KiB in order, as levels 4 to 9 did (entries older
     * than that are beyond every later search's reach); the insertion waits for the first step,
     * since the last positions hash bytes after the point. The greedy levels (2 and 3) skip hashing
     * inside long matches instead and warm up ({@link #resumeWarm}). Only for a fresh compressor.
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary of this level
     */
    void resume(byte[] history, int offset, int length, GoRestartState state) throws IOException {
        if (level.fastSkipHashing() != SKIP_NEVER) {
            resumeWarm(history, offset, length, state);
            return;
        }
        long at = state.input() - state.windowStart();
        int available = (int) Math.min(length, at);
        if (at < 0 || at >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) || state.windowStart() < 0
                || state.length() < MIN_MATCH_LENGTH - 1 || state.length() > MAX_MATCH_LENGTH
                || state.offset() < 0 || state.offset() > WINDOW_SIZE
                || available < Math.min(WINDOW_SIZE, at)) {
            throw new IllegalArgumentException("not a block boundary of Go's level " + level.level() + " with "
                    + length + " bytes of history: " + state);
        }
        reset();
        windowStart = state.windowStart();
        System.arraycopy(history, offset + length - available, window, (int) at - available, available);
        windowEnd = (int) at;
        blockStart = (int) at;
        byteAvailable = state.byteAvailable();
        index = (int) at + (byteAvailable ? 1 : 0);
        this.length = state.length();
        this.offset = state.offset();
        rebuildFrom = Math.max(index - WINDOW_SIZE, (int) at - available);
        rebuildTo = index;
    }

    /**
     * Continues a greedy level's stream at a block boundary: the match finder runs from empty chains over
     * the {@link FastRestart#WARM_UP} bytes before the point ({@code history[offset..offset+length)} ends
     * with them), its tokens dropped, and the first block starts where it reaches the point. The window
     * is laid out and slid as the original's (by 32 KiB each time it is full and stepped over, whatever
     * the tokens), so a warm-up that falls into step with the original leaves its very chains. The
     * greedy levels carry no pending byte or match across a boundary: the state's are the empty ones.
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary of this level or history lacks the warm-up's input
     */
    private void resumeWarm(byte[] history, int offset, int length, GoRestartState state) throws IOException {
        long point = state.input();
        int warmUp = (int) (point - FastRestart.warmUpStart(point));
        long at = point - state.windowStart();
        if (state.byteAvailable() || state.length() != MIN_MATCH_LENGTH - 1 || state.offset() != 0 || state.windowStart() < 0
                || state.windowStart() % WINDOW_SIZE != 0 || at < 0 || at >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH)
                || length < warmUp) {
            throw new IllegalArgumentException("not a block boundary of Go's level " + level.level() + " with "
                    + length + " bytes of history: " + state);
        }
        reset();
        windowStart = FastRestart.warmUpWindowBase(point, state.windowStart());
        index = (int) (point - warmUp - windowStart);
        windowEnd = index;
        blockStart = index;
        warmUntil = point;
        take(history, offset + length - warmUp, warmUp);
    }

    /**
     * For the proof, before any input: a greedy level's segment ends only at a boundary where a segment
     * resumed there was seen to go on exactly as this one ({@link FastRestart});
     * {@code history[offset..offset+length)} is the input before the segment's start, input offset
     * {@code start}. The lazy levels' boundaries all hold.
     */
    void verifyBoundaries(byte[] history, int offset, int length, long start) {
        if (level.fastSkipHashing() != SKIP_NEVER) {
            verified = new FastRestart<>(history, offset, length, start);
        }
    }

    /**
     * Takes input, stepping whenever the window is full, as Go's single write of the whole input does
     * (so where the window slides depends on the input alone); returns how much it took: all of it,
     * unless it stopped at its end block or, a shadow, at {@link #pauseAt}.
     */
    int take(byte[] data, int offset, int length) throws IOException {
        int taken = 0;
        while (stopped == null && windowStart + index < pauseAt) {
            if (windowFull()) {
                step(false);
                if (stopped != null || windowStart + index >= pauseAt) {
                    break;
                }
            }
            if (taken == length) {
                break;
            }
            taken += fill(data, offset + taken, length - taken);
        }
        return taken;
    }

    /** From now on, {@link #step} stops after writing the first block that ends at input {@code offset} or later. */
    void stopAtBlockEnd(long offset) {
        stopAt = offset;
    }

    /** Where {@link #step} stopped, or null while it has not. */
    GoRestartState stopped() {
        return stopped;
    }

    /** Whether the window holds all the input it can: a canonical step is due. */
    boolean windowFull() {
        return windowEnd == window.length;
    }

    /** The input offset of {@code window[windowEnd]}: how much input was filled in. */
    long filled() {
        return windowStart + windowEnd;
    }

    /** Copies the window's input from input offset {@code from} to the end of what was filled in. */
    byte[] windowFrom(long from) {
        int start = (int) (from - windowStart);
        if (start < 0 || start > windowEnd) {
            throw new IllegalArgumentException("input offset " + from + " is not in the window");
        }
        return Arrays.copyOfRange(window, start, windowEnd);
    }

    private void rebuildChains() {
        int end = Math.min(rebuildTo, windowEnd - (MIN_MATCH_LENGTH - 1));
        for (int i = rebuildFrom; i < end; i++) {
            int hash = hash4(window, i) & HASH_MASK;
            hashPrev[i & WINDOW_MASK] = distance(i + hashOffset, hashHead[hash]);
            hashHead[hash] = i + hashOffset;
        }
        rebuildFrom = rebuildTo;
    }

    @Override
    int fill(byte[] b, int off, int len) {
        if (index >= 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH)) {
            slideWindow();
        }
        int n = Math.min(len, window.length - windowEnd);
        System.arraycopy(b, off, window, windowEnd, n);
        windowEnd += n;
        return n;
    }

    /** Shifts the window down by 32 KiB, rebasing the hash chains when their offset grows too large. */
    private void slideWindow() {
        if (verified != null) {
            verified.beforeSlide(window, windowStart);
        }
        System.arraycopy(window, WINDOW_SIZE, window, 0, WINDOW_SIZE);
        index -= WINDOW_SIZE;
        windowEnd -= WINDOW_SIZE;
        windowStart += WINDOW_SIZE;
        blockStart = blockStart >= WINDOW_SIZE ? blockStart - WINDOW_SIZE : Integer.MAX_VALUE;
        hashOffset += WINDOW_SIZE;
        if (hashOffset > MAX_HASH_OFFSET) {
            int delta = hashOffset - 1;
            hashOffset -= delta;
            chainHead -= delta;
            rebase(hashHead, delta);
        }
    }

    private static void rebase(int[] positions, int delta) {
        for (int i = 0; i < positions.length; i++) {
            int v = positions[i];
            positions[i] = v > delta ? v - delta : 0;
        }
    }

    /** Writes the first {@code count} tokens as a block ending at window {@code index}, if {@code index > 0}. */
    private void writeBlock(int count, int index) throws IOException {
        if (warmUntil >= 0) {
            // A warm-up's tokens are the previous segment's.
            blockStart = index;
            return;
        }
        if (index > 0) {
            if (blockStart <= index) {
                w.writeBlock(tokens, count, false, window, blockStart, index - blockStart);
            } else {
                // The block's input slid out of the window: it cannot be stored.
                w.writeBlock(tokens, count, false, null, 0, -1);
            }
            blockStart = index;
        }
    }

    /**
     * Reads the hash heads of positions {@code [from, to)} so that they are in the cache when
     * inserted: hashHead (512 KiB) is mostly a cache miss, and these independent reads overlap
     * where the reads one by one, each followed by a search depending on it, would not. The
     * values go to a field only so that the reads are not optimized away.
     */
    private void warm(byte[] window, int[] hashHead, int from, int to) {
        int any = 0;
        for (int i = from; i < to; i++) {
            any |= hashHead[hash4(window, i) & HASH_MASK];
        }
        warmed = any;
    }

    /**
     * The hashPrev entry of the string at {@code position} (an index plus hashOffset) whose
     * predecessor is {@code head} (likewise, 0 for none). Following the entry lands where Go's
     * would, or, when clamped, like Go's before the window or below 0, which ends the search.
     */
    private static char distance(int position, int head) {
        return (char) Math.min(position - head, FAR);
    }

    private static int hash4(byte[] b, int i) {
        return ((int) BE_INT.get(b, i) * HASH_MUL) >>> (32 - HASH_BITS);
    }

    /**
     * Looks for a match at {@code pos} longer than {@code prevLength}, following at most
     * {@code chain} links from {@code prevHead}. Returns {@code offset << 16 | length} of the best
     * one, or 0 when there is none.
     */
    private int findMatch(int pos, int prevHead, int prevLength, int lookahead) {
        byte[] win = window;
        char[] hashPrev = this.hashPrev;
        int minMatchLook = Math.min(MAX_MATCH_LENGTH, lookahead);
        // A match at least this long ends the search.
        int nice = Math.min(minMatchLook, level.nice());
        int tries = level.chain();
        int length = prevLength;
        if (length >= level.good()) {
            tries >>= 2;
        }
        int result = 0;
        byte wEnd = win[pos + length];
        int minIndex = pos - WINDOW_SIZE;
        for (int i = prevHead; tries > 0; tries--) {
            if (wEnd == win[i + length]) {
                // Most candidates differ within eight bytes: settle those without a call.
                long difference = minMatchLook >= 8 ? MatchLength.difference(win, i, win, pos) : 0;
                int n = difference != 0 ? MatchLength.equalBytes(difference)
                        : MatchLength.of(win, i, win, pos, minMatchLook);
                if (n > length && (n > MIN_MATCH_LENGTH || pos - i <= 4096)) {
                    length = n;
                    result = (pos - i) << 16 | n;
                    if (n >= nice) {
                        break;
                    }
                    wEnd = win[pos + n];
                }
            }
            if (i == minIndex) {
                // hashPrev[i & WINDOW_MASK] has been overwritten already.
                break;
            }
            i -= hashPrev[i & WINDOW_MASK];
            if (i < minIndex || i < 0) {
                break;
            }
        }
        return result;
    }

    @Override
    void step(boolean sync) throws IOException {
        if (windowEnd - index < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH && !sync || stopped != null) {
            return;
        }
        if (rebuildFrom < rebuildTo) {
            rebuildChains();
        }
        while (stopped == null) {
            switch (deflate(sync, pauseIndex(sync))) {
                case INPUT -> {
                    return;
                }
                case BOUNDARY -> boundaryReached();
                case PAUSE -> {
                    if (!paused()) {
                        return;
                    }
                }
            }
        }
    }

    /** The window index {@link #deflate} pauses at: a warm-up's end, a shadow's stop, the next comparison with a shadow. */
    private int pauseIndex(boolean sync) {
        long at = warmUntil >= 0 ? warmUntil : Long.MAX_VALUE;
        if (!sync) {
            at = Math.min(at, pauseAt);
            if (verified != null) {
                at = Math.min(at, verified.nextCompare());
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, at - windowStart));
    }

    /** {@link #deflate} paused: ends the warm-up or compares with a check's shadow; false if it is a shadow to stop here. */
    private boolean paused() throws IOException {
        long position = windowStart + index;
        if (warmUntil >= 0 && position >= warmUntil) {
            endWarmUp(position);
        }
        if (position >= pauseAt) {
            return false;
        }
        if (verified != null && verified.compareAt(position)) {
            compareWithShadow();
        }
        return true;
    }

    /** The warm-up reached the point: the segment's first block starts here. A check's shadow that passed it is compared and found to differ. */
    private void endWarmUp(long position) {
        if (pauseAt == Long.MAX_VALUE) {
            FastRestart.requireWarmUpEndsAtPoint(position, warmUntil);
        }
        tokenCount = 0;
        blockStart = index;
        warmUntil = -1;
    }

    /** A block ended at or past {@link #stopAt}: the segment ends here, or, for the proof at a greedy level, once a check found it holds. */
    private void boundaryReached() throws IOException {
        if (index != blockStart + (byteAvailable ? 1 : 0)) {
            throw new IllegalStateException("a block ended at " + blockStart + " with the encoder at " + index);
        }
        GoRestartState state = level.fastSkipHashing() == SKIP_NEVER
                ? new GoRestartState(windowStart + blockStart, windowStart, byteAvailable, length, offset)
                // The greedy levels find each match afresh: their last one is no state.
                : new GoRestartState(windowStart + blockStart, windowStart, false, MIN_MATCH_LENGTH - 1, 0);
        if (verified == null) {
            stopped = state;
        } else {
            checkBoundary(state);
        }
    }

    /** Starts checking the boundary {@code point} with a segment resumed there, unless checks are skipped after failed ones. */
    private void checkBoundary(GoRestartState point) throws IOException {
        if (!verified.due()) {
            return;
        }
        byte[] before = verified.warmUpInput(window, windowStart, blockStart);
        if (before == null) {
            return;
        }
        HashChainCompressor shadow = new HashChainCompressor(new HuffmanBitWriter(OutputStream.nullOutputStream()), level);
        shadow.resume(before, 0, before.length, point);
        verified.start(point, shadow, point.input());
        compareWithShadow();
    }

    /**
     * Gives the shadow the input this encoder read, up to where it is, and compares them there; the
     * segment ends at the shadow's point once it holds.
     */
    private void compareWithShadow() throws IOException {
        HashChainCompressor shadow = verified.shadow();
        long at = windowStart + index;
        shadow.pauseAt = at;
        long fed = verified.fed();
        if (fed >= windowStart) {
            verified.fedTo(fed + shadow.take(window, (int) (fed - windowStart), (int) (filled() - fed)));
        }
        boolean sameSoFar = shadow.windowStart == windowStart && shadow.index == index
                && Arrays.equals(tokens, 0, tokenCount, shadow.tokens, 0, shadow.tokenCount);
        stopped = verified.compared(at, sameSoFar, () -> sameChains(shadow), WINDOW_SIZE);
    }

    /**
     * Whether {@code other}, at the same place of the same window, finds the same matches from here on:
     * every chain walked from its head visits the same positions, as far as a search walks (its first
     * {@code chain} entries, since later insertions only go before them) and a match may reach (a
     * window back). Positions are compared relative to each one's hashOffset, which differ.
     */
    private boolean sameChains(HashChainCompressor other) {
        int reach = Math.max(0, index - WINDOW_SIZE);
        int chain = level.chain();
        for (int h = 0; h < HASH_SIZE; h++) {
            int a = hashHead[h] - hashOffset;
            int b = other.hashHead[h] - other.hashOffset;
            for (int depth = 0; depth < chain && (a >= reach || b >= reach); depth++) {
                if (a != b) {
                    return false;
                }
                a -= hashPrev[a & WINDOW_MASK];
                b -= other.hashPrev[b & WINDOW_MASK];
            }
        }
        return true;
    }

    /**
     * Go's {@code deflate}, up to window index {@code pauseIndex} at most. The loop state lives in
     * locals (Go keeps it in the struct) and is stored back on the way out.
     */
    private Halt deflate(boolean sync, int pauseIndex) throws IOException {
        Halt halt = Halt.INPUT;
        byte[] window = this.window;
        int[] hashHead = this.hashHead;
        char[] hashPrev = this.hashPrev;
        int[] tokens = this.tokens;
        boolean lazy = level.fastSkipHashing() == SKIP_NEVER;
        int lazyLimit = level.lazy();
        int fastSkipHashing = level.fastSkipHashing();
        int windowEnd = this.windowEnd;
        int hashOffset = this.hashOffset;
        int maxInsertIndex = windowEnd - (MIN_MATCH_LENGTH - 1);
        int index = this.index;
        int length = this.length;
        int offset = this.offset;
        boolean byteAvailable = this.byteAvailable;
        int tokenCount = this.tokenCount;
        int chainHead = this.chainHead;
        int warmedTo = index;
        TokenObserver observer = this.observer;

        while (true) {
            int lookahead = windowEnd - index;
            if (lookahead < MIN_MATCH_LENGTH + MAX_MATCH_LENGTH) {
                if (!sync) {
                    break;
                }
                if (lookahead == 0) {
                    // Flush the current block, if any.
                    if (byteAvailable) {
                        if (observer != null) {
                            observer.literal(window[index - 1] & 0xFF);
                        }
                        tokens[tokenCount++] = window[index - 1] & 0xFF;
                        byteAvailable = false;
                    }
                    if (tokenCount > 0) {
                        writeBlock(tokenCount, index);
                        tokenCount = 0;
                    }
                    break;
                }
            }
            if (index >= pauseIndex) {
                halt = Halt.PAUSE;
                break;
            }
            if (index < maxInsertIndex) {
                if (index >= warmedTo) {
                    warmedTo = Math.min(index + WARM_AHEAD, maxInsertIndex);
                    warm(window, hashHead, index, warmedTo);
                }
                int hash = hash4(window, index) & HASH_MASK;
                chainHead = hashHead[hash];
                hashPrev[index & WINDOW_MASK] = distance(index + hashOffset, chainHead);
                hashHead[hash] = index + hashOffset;
            }
            int prevLength = length;
            int prevOffset = offset;
            length = MIN_MATCH_LENGTH - 1;
            offset = 0;
            int minIndex = Math.max(index - WINDOW_SIZE, 0);

            if (chainHead - hashOffset >= minIndex
                    && (!lazy && lookahead > MIN_MATCH_LENGTH - 1
                        || lazy && lookahead > prevLength && prevLength < lazyLimit)) {
                int match = findMatch(index, chainHead - hashOffset, MIN_MATCH_LENGTH - 1, lookahead);
                if (match != 0) {
                    length = match & 0xFFFF;
                    offset = match >>> 16;
                }
            }
            if (!lazy && length >= MIN_MATCH_LENGTH || lazy && prevLength >= MIN_MATCH_LENGTH && length <= prevLength) {
                // Emit the previous match (lazy) or this one (greedy).
                if (observer != null) {
                    observer.match(lazy ? prevLength : length, lazy ? prevOffset : offset);
                }
                tokens[tokenCount++] = lazy
                        ? Tokens.matchToken(prevLength - BASE_MATCH_LENGTH, prevOffset - BASE_MATCH_OFFSET)
                        : Tokens.matchToken(length - BASE_MATCH_LENGTH, offset - BASE_MATCH_OFFSET);
                // Hash every string up to the end of the match; index and index-1 are in already.
                // Without enough lookahead the last two strings are not inserted.
                if (length <= fastSkipHashing) {
                    int newIndex = lazy ? index + prevLength - 1 : index + length;
                    int i = index + 1;
                    for (int end = Math.min(newIndex, maxInsertIndex); i < end; i++) {
                        int hash = hash4(window, i) & HASH_MASK;
                        hashPrev[i & WINDOW_MASK] = distance(i + hashOffset, hashHead[hash]);
                        hashHead[hash] = i + hashOffset;
                    }
                    index = Math.max(i, newIndex);
                    if (lazy) {
                        byteAvailable = false;
                        length = MIN_MATCH_LENGTH - 1;
                    }
                } else {
                    // Matches this long are not worth hashing every position of.
                    index += length;
                }
                if (tokenCount == MAX_FLATE_BLOCK_TOKENS) {
                    // The block includes the current character.
                    writeBlock(tokenCount, index);
                    tokenCount = 0;
                }
            } else {
                if (!lazy || byteAvailable) {
                    int i = lazy ? index - 1 : index;
                    if (observer != null) {
                        observer.literal(window[i] & 0xFF);
                    }
                    tokens[tokenCount++] = window[i] & 0xFF;
                    if (tokenCount == MAX_FLATE_BLOCK_TOKENS) {
                        writeBlock(tokenCount, i + 1);
                        tokenCount = 0;
                    }
                }
                index++;
                if (lazy) {
                    byteAvailable = true;
                }
            }
            // A block that ends within a match's reach of the window's end is no restart point: the window slides
            // before the next byte, which a resume there cannot place (it refuses such a state).
            if (tokenCount == 0 && !sync && windowStart + blockStart >= stopAt
                    && blockStart < 2 * WINDOW_SIZE - (MIN_MATCH_LENGTH + MAX_MATCH_LENGTH)) {
                halt = Halt.BOUNDARY;
                break;
            }
        }
        this.index = index;
        this.length = length;
        this.offset = offset;
        this.byteAvailable = byteAvailable;
        this.tokenCount = tokenCount;
        this.chainHead = chainHead;
        return halt;
    }
}
