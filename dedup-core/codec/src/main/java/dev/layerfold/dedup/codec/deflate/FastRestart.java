package dev.layerfold.dedup.codec.deflate;

import java.util.function.BooleanSupplier;

/**
 * What the greedy hash-chain encoders share for restart points: zlib's deflate_fast, GNU gzip's levels 1
 * to 3 and Go 1.8-1.26's levels 2 and 3. They hash a match's positions into the chains only when it is
 * short (zlib's {@code max_insert_length}, Go's {@code fastSkipHashing}: 4 to 6), so which positions the
 * chains hold depends on where earlier matches started, and the 32 KiB before a point do not tell. A
 * resumed segment rebuilds them by a warm-up: the match finder runs from empty chains over the
 * {@value #WARM_UP} bytes before the point, its tokens dropped, and the segment's first block starts
 * where it reaches the point.
 *
 * <p>Where the warm-up's chains are not the original's right at the point, its tokens may still be:
 * a chain that differs only in positions no later search reaches, or reaches only after the
 * difference left the window, changes nothing. So for the proof
 * a boundary is a point only where a segment resumed there (the encoder's <em>shadow</em>, type
 * {@code E}) is seen to go on exactly as the encoder: paused at the encoder's position every
 * {@value #CHECK_STEP} bytes, it must have found the same tokens, until its chains within a search's
 * reach are the encoder's (at the latest a window past the point, where both hold only positions
 * their same tokens put there). Until then the encoder goes on past the point without ending its
 * block, so it can still end the segment there; if its block ends first, or a token differs, the
 * boundary is no point. Each check costs a warm-up, so where they keep failing they are made ever
 * more rarely. Each encoder compares its own tokens and chains; this keeps the input a warm-up reads
 * and the checks' course. Not thread-safe.
 *
 * @param <E> the encoder, as its shadow
 * @param <P> the state a point records
 */
public final class FastRestart<E, P extends BoundarySegment.State> {

    /**
     * The input before a point the warm-up runs over. Where its tokens differ from the original's, its
     * chains differ, which makes later tokens differ; these differences die out over some windows of
     * input. Checked at every block boundary of tars of system files (kernel headers, /usr/share), a
     * warm-up of 64 KiB held at 0-13% of them, 128 KiB at 35-91%, 256 KiB at 96-100% (99.5% and more
     * on /usr/lib's binaries); it costs a resumed segment of 4 MiB some 6% more encoding.
     */
    public static final int WARM_UP = 256 * 1024;
    /** How far apart the encoder and its shadow are compared. */
    public static final int CHECK_STEP = 8 * 1024;
    /**
     * How far past a boundary the encoder reads before it knows whether it is a point: the last check,
     * a window past it, and the window it has read ahead of that.
     */
    public static final int LOOKAHEAD = 96 * 1024;

    private static final int WSIZE = 32 * 1024;

    /**
     * Input before the window, for a warm-up's input: the history the segment started with and what
     * the window's slides dropped since, input offset {@code o} at {@code o} modulo its size, from input
     * offset {@link #keptFrom} to {@link #keptTo}.
     */
    private final byte[] kept = new byte[WARM_UP];
    private long keptFrom;
    private long keptTo;
    private int failedChecks;
    private int checksToSkip;
    private E shadow;
    private P point;
    private long fed;
    private long nextCheck;

    /** Where a warm-up for a point at input offset {@code point} starts. */
    public static long warmUpStart(long point) {
        return point - Math.min(point, WARM_UP);
    }

    /**
     * The window base the warm-up for a point at input offset {@code point}, whose window starts at
     * {@code windowBase}, starts with: the point's if the warm-up starts in its window, else an earlier
     * one (a multiple of 32 KiB before it), which the warm-up slides as the original did.
     */
    public static long warmUpWindowBase(long point, long windowBase) {
        long start = warmUpStart(point);
        return start >= windowBase ? windowBase : windowBase - Math.ceilDiv(windowBase - start, WSIZE) * WSIZE;
    }

    /**
     * A resumed segment's warm-up has stopped at {@code position}: it must be the point itself, since a
     * match that ran on past it leaves no block boundary there for the segment to start at.
     */
    public static void requireWarmUpEndsAtPoint(long position, long point) {
        if (position != point) {
            throw new IllegalStateException("the warm-up passed the restart point at input offset " + point + " (a match ran on to "
                    + position + "): not a block boundary it rebuilds");
        }
    }

    /**
     * For chains kept as zlib's (positions in {@code head} and {@code prev}): whether two encoders at the
     * same position {@code strstart} of the same window find the same
     * matches from here on: every chain walked from its head visits the same positions, as far as a
     * search walks (its first {@code maxChain} entries, since later insertions only go before them) and
     * a match may reach (positions at least {@code maxDist} back; 0 ends a chain, as zlib's NIL).
     */
    public static boolean sameChains(char[] head, char[] prev, char[] otherHead, char[] otherPrev, int strstart, int maxDist, int maxChain) {
        int reach = Math.max(1, strstart - maxDist);
        int mask = prev.length - 1;
        for (int h = 0; h < head.length; h++) {
            int a = head[h];
            int b = otherHead[h];
            for (int depth = 0; depth < maxChain && (a >= reach || b >= reach); depth++) {
                if (a != b) {
                    return false;
                }
                a = prev[a & mask];
                b = otherPrev[b & mask];
            }
        }
        return true;
    }

    /** For a segment starting at input offset {@code start}: keeps {@code history[offset..offset+length)}, the input before it. */
    public FastRestart(byte[] history, int offset, int length, long start) {
        int n = Math.min(length, WARM_UP);
        keptFrom = start - n;
        keptTo = keptFrom;
        keep(history, offset + length - n, n);
    }

    /** Keeps the lower half of {@code window} (at input offset {@code windowBase}) that a slide is about to drop. */
    public void beforeSlide(byte[] window, long windowBase) {
        if (windowBase + WSIZE > keptTo) {
            int skip = (int) Math.max(0, keptTo - windowBase);
            if (windowBase > keptTo) {
                keptFrom = windowBase;
                keptTo = windowBase;
            }
            keep(window, skip, WSIZE - skip);
        }
    }

    private void keep(byte[] data, int offset, int length) {
        for (int done = 0; done < length; ) {
            int at = (int) (keptTo % WARM_UP);
            int n = Math.min(length - done, WARM_UP - at);
            System.arraycopy(data, offset + done, kept, at, n);
            done += n;
            keptTo += n;
        }
        keptFrom = Math.max(keptFrom, keptTo - WARM_UP);
    }

    /**
     * The input a warm-up for the point at window offset {@code w} reads: the {@link #WARM_UP} bytes
     * before it (fewer near the stream's start), from {@code window} (at input offset {@code windowBase})
     * and what was kept; null if they are not all at hand.
     */
    public byte[] warmUpInput(byte[] window, long windowBase, int w) {
        long at = windowBase + w;
        long from = warmUpStart(at);
        byte[] input = new byte[(int) (at - from)];
        int older = (int) Math.max(0, windowBase - from);
        if (older > 0 && (from < keptFrom || keptTo < windowBase)) {
            return null;
        }
        for (int done = 0; done < older; ) {
            int in = (int) ((from + done) % WARM_UP);
            int n = Math.min(older - done, WARM_UP - in);
            System.arraycopy(kept, in, input, done, n);
            done += n;
        }
        System.arraycopy(window, (int) Math.max(0, from - windowBase), input, older, input.length - older);
        return input;
    }

    /**
     * The encoder reached a block boundary past its segment's end: whether to check it (false for those
     * skipped after failed checks). A check still under way fails: the block after its point ended.
     */
    public boolean due() {
        if (shadow != null) {
            failed();
        }
        if (checksToSkip > 0) {
            checksToSkip--;
            return false;
        }
        return true;
    }

    /** Starts checking {@code point} with {@code shadow}, a segment resumed there, which was given the input up to {@code fed}. */
    public void start(P point, E shadow, long fed) {
        this.point = point;
        this.shadow = shadow;
        this.fed = fed;
        this.nextCheck = point.input();
    }

    /** The shadow of the check under way, or null. */
    public E shadow() {
        return shadow;
    }

    /** Whether the encoder, at input offset {@code at}, is due to compare itself with the shadow. */
    public boolean compareAt(long at) {
        return shadow != null && at >= nextCheck;
    }

    /** The input offset of the next comparison with the shadow, or {@link Long#MAX_VALUE} with no check under way. */
    public long nextCompare() {
        return shadow != null ? nextCheck : Long.MAX_VALUE;
    }

    /** The input offset the shadow was given input up to. */
    public long fed() {
        return fed;
    }

    public void fedTo(long offset) {
        fed = offset;
    }

    /**
     * The verdict of a comparison at input offset {@code at}: whether the shadow found the same tokens
     * ({@code sameSoFar}) and holds the same chains ({@code sameChains}, asked only where it matters).
     * Returns the point once it holds, null while it is still open or once it failed.
     */
    public P compared(long at, boolean sameSoFar, BooleanSupplier sameChains, int maxDist) {
        if (!sameSoFar) {
            failed();
            return null;
        }
        if (at - point.input() >= maxDist || sameChains.getAsBoolean()) {
            shadow = null;
            return point;
        }
        nextCheck = at + CHECK_STEP;
        return null;
    }

    /** A check failed: the next {@code failures} boundaries are not checked. */
    public void failed() {
        shadow = null;
        checksToSkip = ++failedChecks;
    }
}
