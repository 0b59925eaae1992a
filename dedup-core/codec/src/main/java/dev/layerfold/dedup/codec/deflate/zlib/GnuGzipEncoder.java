package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.FastRestart;
import dev.layerfold.dedup.codec.deflate.TokenObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * GNU gzip's own deflate ({@code gzip -1} to {@code -9}), reproduced bit for bit: Jean-loup
 * Gailly's {@code deflate.c} and {@code trees.c}, which zlib grew out of. The trees and block
 * emitters are zlib's ({@link Trees}); what differs from zlib's deflate is ported here:
 * <ul>
 *   <li>blocks end after 32767 symbols (zlib: 16383), or earlier, at levels 3 and up, where
 *       {@code ct_tally()} guesses every 4096 symbols that ending pays
 *       ({@link Trees#gnuGzipWouldEndBlock});</li>
 *   <li>matches are searched only while {@code strstart <= window_size - MIN_LOOKAHEAD}, without
 *       clamping {@code nice_match} to the lookahead, and cut to the lookahead afterwards;</li>
 *   <li>strings are hashed into the chains up to the end of every match even in the last bytes, and
 *       {@code longest_match()} takes the third byte as equal when the first two are;</li>
 *   <li>input is pulled a window at a time ({@code read_buf}): the window is the whole 64 KiB
 *       buffer, slid only when input runs short of {@code MIN_LOOKAHEAD}; at the end of input the
 *       two bytes after it are zeroed, and searches near the end compare the stale window beyond.</li>
 * </ul>
 * Ported from gzip 1.12 (Debian bookworm); {@code --rsyncable} is not reproduced.
 */
public final class GnuGzipEncoder implements DeflateEncoder {

    private static final int WSIZE = 0x8000;
    private static final int WMASK = WSIZE - 1;
    private static final int WINDOW_SIZE = 2 * WSIZE;
    private static final int HASH_BITS = 15;
    private static final int HASH_MASK = (1 << HASH_BITS) - 1;
    private static final int H_SHIFT = (HASH_BITS + 3 - 1) / 3;
    private static final int MIN_MATCH = 3;
    private static final int MAX_MATCH = 258;
    private static final int MIN_LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1;
    private static final int MAX_DIST = WSIZE - MIN_LOOKAHEAD;
    private static final int TOO_FAR = 4096;
    private static final int LIT_BUFSIZE = 0x8000;
    /** good, lazy, nice, chain by level: gzip's configuration_table, the same as zlib's. */
    private static final int[][] CONFIGURATION = {
        {0, 0, 0, 0}, {4, 4, 8, 4}, {4, 5, 16, 8}, {4, 6, 32, 32}, {4, 4, 16, 16},
        {8, 16, 32, 32}, {8, 16, 128, 128}, {8, 32, 128, 256}, {32, 128, 258, 1024}, {32, 258, 258, 4096},
    };

    private final int level;
    private final int maxLazyMatch;
    private final int goodMatch;
    private final int niceMatch;
    private final int maxChainLength;
    private final PendingOutput out;
    private final Trees trees;
    private final byte[] window = new byte[WINDOW_SIZE + MatchBytes.SLACK];
    private final char[] prev = new char[WSIZE];
    private final char[] head = new char[1 << HASH_BITS];

    private byte[] input;
    private int inputPos;
    private int inputEnd;

    private boolean started;
    private boolean eofile;
    private boolean finished;
    private int lookahead;
    private int strstart;
    private long blockStart;
    private int insH;
    private int matchStart;
    private int prevLength;
    private int matchLength;
    private boolean matchAvailable;

    /** The input offset of window[0]: block boundaries as offsets in the whole input. */
    private long windowBase;
    /** The lazy levels stop at the first block boundary at or past this input offset (a segment's end). */
    private long stopFrom = Long.MAX_VALUE;
    /** Where they stopped, once they did: the next segment's start. */
    private LazyRestartState stopped;
    /** Positions before strstart a resumed segment still owes the hash chains: they need the two bytes after them. */
    private int owedInserts;
    /** Levels 1 to 3 resumed from a restart point: until this input offset (the point) they warm the chains up, writing nothing; -1 after. */
    private long warmUntil = -1;
    /** A check's shadow ({@link FastRestart}) stops at this input offset, where the encoder it shadows is; -1: never. */
    private long pauseAt = -1;
    /** Levels 1 to 3 for the proof: they end a segment only at boundaries a shadow was seen to go on from as they do; null otherwise. */
    private FastRestart<GnuGzipEncoder, LazyRestartState> verified;

    private GnuGzipEncoder(OutputStream sink, int level) {
        this.level = level;
        this.goodMatch = CONFIGURATION[level][0];
        this.maxLazyMatch = CONFIGURATION[level][1];
        this.niceMatch = CONFIGURATION[level][2];
        this.maxChainLength = CONFIGURATION[level][3];
        this.out = new PendingOutput(sink);
        this.trees = new Trees(out, LIT_BUFSIZE);
        this.matchLength = level <= 3 ? 0 : MIN_MATCH - 1;
    }

    /**
     * An encoder writing to {@code sink} the raw deflate stream {@code gzip -level} writes.
     *
     * @throws IllegalArgumentException when {@code level} is outside 1..9, as gzip refuses it
     */
    public static GnuGzipEncoder create(OutputStream sink, int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("GNU gzip level must be 1..9, got " + level);
        }
        return new GnuGzipEncoder(Objects.requireNonNull(sink, "sink"), level);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (finished) {
            throw new IllegalStateException("the encoder is finished");
        }
        if (stopped != null) {
            throw new IllegalStateException("the segment stopped at its block boundary " + stopped);
        }
        input = data;
        inputPos = offset;
        inputEnd = offset + length;
        run(false);
        input = null;
    }

    @Override
    public boolean observeTokens(TokenObserver observer) {
        trees.observeTokens(observer);
        return true;
    }

    @Override
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("the encoder is finished");
        }
        run(true);
        finished = true;
    }

    private void run(boolean eof) throws IOException {
        try {
            while (true) {
                if (warmUntil >= 0 && windowBase + strstart >= warmUntil) {
                    endWarmUp();
                }
                if (pauseAt >= 0 && windowBase + strstart >= pauseAt) {
                    return;
                }
                if (!fillUntilEnough(eof)) {
                    return;
                }
                if (verified != null && !eofile && verified.compareAt(windowBase + strstart) && compareWithShadow()) {
                    return;
                }
                if (!started) {
                    // At the stream's start, or where a warm-up starts.
                    started = true;
                    insH = 0;
                    for (int j = 0; j < MIN_MATCH - 1; j++) {
                        insH = ((insH << H_SHIFT) ^ (window[strstart + j] & 0xff)) & HASH_MASK;
                    }
                }
                if (owedInserts > 0) {
                    insertOwed();
                }
                if (lookahead == 0) {
                    break;
                }
                if (level <= 3) {
                    stepFast();
                } else {
                    stepLazy();
                }
                if (stopped != null) {
                    return;
                }
            }
            if (level > 3 && matchAvailable) {
                tally(0, window[strstart - 1] & 0xff);
                matchAvailable = false;
            }
            flushBlock(true);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * {@code while (lookahead < MIN_LOOKAHEAD && !eofile) fill_window();}: false if it must wait for
     * more input (gzip's read would block there).
     */
    private boolean fillUntilEnough(boolean eof) {
        while (lookahead < MIN_LOOKAHEAD && !eofile) {
            int more = WINDOW_SIZE - lookahead - strstart;
            if (strstart >= WSIZE + MAX_DIST) {
                slide();
                more += WSIZE;
            }
            int n = Math.min(more, inputEnd - inputPos);
            if (n > 0) {
                System.arraycopy(input, inputPos, window, strstart + lookahead, n);
                inputPos += n;
                lookahead += n;
            } else if (eof) {
                eofile = true;
                // gzip 1.4+: "Don't let garbage pollute the dictionary": the chains hash these two bytes.
                java.util.Arrays.fill(window, strstart + lookahead, Math.min(WINDOW_SIZE, strstart + lookahead + MIN_MATCH - 1), (byte) 0);
            } else {
                return false;
            }
        }
        return true;
    }

    private void slide() {
        if (verified != null) {
            verified.beforeSlide(window, windowBase);
        }
        System.arraycopy(window, WSIZE, window, 0, WSIZE);
        windowBase += WSIZE;
        matchStart -= WSIZE;
        strstart -= WSIZE;
        blockStart -= WSIZE;
        for (int n = 0; n < head.length; n++) {
            int m = head[n];
            head[n] = (char) (m >= WSIZE ? m - WSIZE : 0);
        }
        for (int n = 0; n < WSIZE; n++) {
            int m = prev[n];
            prev[n] = (char) (m >= WSIZE ? m - WSIZE : 0);
        }
    }

    /** INSERT_STRING(): returns the previous head of the chain. */
    private int insertString(int s) {
        insH = ((insH << H_SHIFT) ^ (window[s + MIN_MATCH - 1] & 0xff)) & HASH_MASK;
        int matchHead = head[insH];
        prev[s & WMASK] = (char) matchHead;
        head[insH] = (char) s;
        return matchHead;
    }

    /** ct_tally(): {@code dist} 0 for a literal {@code lc}, else a match of length lc + 3. */
    private boolean tally(int dist, int lc) {
        if (warmUntil >= 0) {
            // A warm-up only finds tokens: they are the previous segment's.
            return false;
        }
        boolean flush = dist == 0 ? trees.tallyLit(lc) : trees.tallyDist(dist, lc);
        if (level > 2 && trees.gnuGzipWouldEndBlock(strstart - blockStart)) {
            return true;
        }
        return flush;
    }

    /** FLUSH_BLOCK(eof), then block_start = strstart. */
    private void flushBlock(boolean eof) {
        if (blockStart >= 0) {
            trees.flushBlock(level, ZlibStrategy.DEFAULT, window, (int) blockStart, (int) (strstart - blockStart), eof);
        } else {
            trees.flushBlock(level, ZlibStrategy.DEFAULT, null, 0, (int) (strstart - blockStart), eof);
        }
        blockStart = strstart;
        out.flushPending();
    }

    private boolean mayMatch(int hashHead) {
        return hashHead != 0 && strstart - hashHead <= MAX_DIST && strstart <= WINDOW_SIZE - MIN_LOOKAHEAD;
    }

    /** One pass of deflate_fast()'s loop (levels 1 to 3). */
    private void stepFast() {
        prevLength = MIN_MATCH - 1;
        int hashHead = insertString(strstart);
        if (mayMatch(hashHead)) {
            matchLength = Math.min(longestMatch(hashHead), lookahead);
        }
        boolean flush;
        if (matchLength >= MIN_MATCH) {
            flush = tally(strstart - matchStart, matchLength - MIN_MATCH);
            lookahead -= matchLength;
            if (matchLength <= maxLazyMatch) {
                matchLength--;
                do {
                    strstart++;
                    insertString(strstart);
                } while (--matchLength != 0);
                strstart++;
            } else {
                strstart += matchLength;
                matchLength = 0;
                insH = window[strstart] & 0xff;
                insH = ((insH << H_SHIFT) ^ (window[strstart + 1] & 0xff)) & HASH_MASK;
            }
        } else {
            flush = tally(0, window[strstart] & 0xff);
            lookahead--;
            strstart++;
        }
        if (flush) {
            flushBlock(false);
            stopIfReached();
        }
    }

    /** One pass of deflate()'s lazy loop (levels 4 to 9). */
    private void stepLazy() {
        int hashHead = insertString(strstart);
        prevLength = matchLength;
        int prevMatch = matchStart;
        matchLength = MIN_MATCH - 1;
        if (prevLength < maxLazyMatch && mayMatch(hashHead)) {
            matchLength = Math.min(longestMatch(hashHead), lookahead);
            if (matchLength == MIN_MATCH && strstart - matchStart > TOO_FAR) {
                matchLength--;
            }
        }
        if (prevLength >= MIN_MATCH && matchLength <= prevLength) {
            boolean flush = tally(strstart - 1 - prevMatch, prevLength - MIN_MATCH);
            lookahead -= prevLength - 1;
            prevLength -= 2;
            do {
                strstart++;
                insertString(strstart);
            } while (--prevLength != 0);
            matchAvailable = false;
            matchLength = MIN_MATCH - 1;
            strstart++;
            if (flush) {
                flushBlock(false);
                stopIfReached();
            }
        } else if (matchAvailable) {
            if (tally(0, window[strstart - 1] & 0xff)) {
                flushBlock(false);
                // Here strstart is already in the hash chains and its match pending.
                if (stopIfReached()) {
                    return;
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

    /** Whether a block that just ended before the end of input is the segment's end: then records the state there. */
    private boolean stopIfReached() {
        if (eofile || windowBase + strstart < stopFrom) {
            return false;
        }
        if (verified != null) {
            return checkBoundary();
        }
        stopped = LazyRestartState.at(windowBase, strstart, matchAvailable, matchLength, matchStart);
        return true;
    }

    /**
     * Continues a fresh stream at levels 1 to 3 from a block boundary: the match finder runs over the
     * input before the point from empty chains, writing nothing ({@link FastRestart}), and the first
     * block starts where it reaches the point. The window is laid out as the original's, so a warm-up
     * that falls into step with it leaves its very chains.
     *
     * @throws IllegalArgumentException if the state cannot be one these levels stopped at, or history lacks the warm-up's input
     */
    private void resumeFast(LazyRestartState state, byte[] history, int offset, int length, int startBit) throws IOException {
        long point = state.input();
        int warmUp = (int) (point - FastRestart.warmUpStart(point));
        state.checkFastResumable(length, "GNU gzip");
        long base = FastRestart.warmUpWindowBase(point, state.windowBase());
        if (base == state.windowBase()) {
            state.placeHistory(window, WINDOW_SIZE, history, offset, length);
        }
        windowBase = base;
        strstart = (int) (point - warmUp - base);
        blockStart = strstart;
        warmUntil = point;
        out.startAtBit(startBit);
        write(history, offset + length - warmUp, warmUp);
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
        GnuGzipEncoder shadow = new GnuGzipEncoder(OutputStream.nullOutputStream(), level);
        shadow.pauseAt = point.input();
        try {
            shadow.resumeFast(point, before, 0, before.length, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        verified.start(point, shadow, point.input());
        return compareWithShadow();
    }

    /** Gives the shadow the input this encoder read, up to where it is, and compares them there; true if the segment ended at the shadow's point. */
    private boolean compareWithShadow() {
        GnuGzipEncoder shadow = verified.shadow();
        long at = windowBase + strstart;
        shadow.pauseAt = at;
        int from = (int) (verified.fed() - windowBase);
        try {
            shadow.write(window, from, strstart + lookahead - from);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        verified.fedTo(verified.fed() + shadow.inputPos - from);
        boolean sameSoFar = shadow.windowBase == windowBase && shadow.strstart == strstart && trees.sameSymbols(shadow.trees);
        stopped = verified.compared(at, sameSoFar,
                () -> FastRestart.sameChains(head, prev, shadow.head, shadow.prev, strstart, MAX_DIST, maxChainLength), MAX_DIST);
        return stopped != null;
    }

    /** Hashes the positions a resumed segment owes, now that the bytes after them are in the window. */
    private void insertOwed() {
        int str = strstart - Math.min(owedInserts, strstart);
        insH = ((window[str] & 0xff) << H_SHIFT ^ (window[str + 1] & 0xff)) & HASH_MASK;
        while (str < strstart) {
            insertString(str++);
        }
        owedInserts = 0;
    }

    /** This encoder's lazy levels as segments between block boundaries ({@link LazySegmentEncoder}). */
    LazyDeflate segments() {
        return new LazyDeflate() {
            @Override
            public void resume(LazyRestartState state, byte[] history, int offset, int length, int startBit) {
                if (started || warmUntil >= 0) {
                    throw new IllegalStateException("only a fresh encoder resumes from a restart point");
                }
                if (LazyRestartState.fastLevel(level)) {
                    try {
                        resumeFast(state, history, offset, length, startBit);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return;
                }
                state.placeHistory(window, WINDOW_SIZE, history, offset, length);
                int w = state.windowOffset();
                int available = state.matchAvailable() ? 1 : 0;
                windowBase = state.windowBase();
                // A pending literal was already taken from the lookahead: the point's byte is read to window[w].
                strstart = w + available;
                lookahead = -available;
                owedInserts = state.history() + available;
                blockStart = w;
                matchAvailable = available == 1;
                matchLength = state.matchLength();
                matchStart = w - state.matchDistance();
                started = true;
                out.startAtBit(startBit);
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
            public int take(byte[] data, int offset, int length) throws IOException {
                write(data, offset, length);
                return length - (inputEnd - inputPos);
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

            @Override
            public void finish() throws IOException {
                GnuGzipEncoder.this.finish();
            }
        };
    }

    /**
     * longest_match(), gzip's portable C version: the third byte is taken as equal when the first
     * two are (the hash makes it so), and {@code nice_match} is not cut to the lookahead.
     */
    private int longestMatch(int curMatch) {
        int chainLength = maxChainLength;
        byte[] w = window;
        int scan = strstart;
        int bestLen = prevLength;
        int limit = strstart > MAX_DIST ? strstart - MAX_DIST : 0;
        short scanEnd = MatchBytes.pair(w, scan + bestLen - 1);
        short scanStart = MatchBytes.pair(w, scan);
        if (prevLength >= goodMatch) {
            chainLength >>= 2;
        }
        do {
            int match = curMatch;
            if (MatchBytes.pair(w, match + bestLen - 1) != scanEnd || MatchBytes.pair(w, match) != scanStart) {
                continue;
            }
            int len = MIN_MATCH + MatchBytes.commonPrefix(w, scan + MIN_MATCH, match + MIN_MATCH, MAX_MATCH - MIN_MATCH);
            if (len > bestLen) {
                matchStart = curMatch;
                bestLen = len;
                if (len >= niceMatch) {
                    break;
                }
                scanEnd = MatchBytes.pair(w, scan + bestLen - 1);
            }
        } while ((curMatch = prev[curMatch & WMASK]) > limit && --chainLength != 0);
        return bestLen;
    }
}
