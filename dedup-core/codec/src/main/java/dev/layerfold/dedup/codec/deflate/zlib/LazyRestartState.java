package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FastRestart;
import java.util.List;

/**
 * What a lazy-matching deflate (zlib's levels 4 to 9, deflate_slow, and GNU gzip's, its ancestor)
 * carries across a block boundary at input offset {@code input} beyond the input itself: the point's
 * place in the window ({@code windowOffset}: where the next 32 KiB slide falls), and the lazy
 * matcher's state. A block ends in two places: after a match (nothing pending) or after a literal
 * while the byte at the point waits with its own match ({@code matchAvailable}, the match's length
 * and distance; 2 and 0: none found). The hash chains follow from the 32 KiB of input before the point.
 */
public record LazyRestartState(long input, int windowOffset, boolean matchAvailable, int matchLength, int matchDistance) implements BoundarySegment.State {

    /** How many values {@link #values} has. */
    public static final int VALUES = 4;

    private static final int WSIZE = 32 * 1024;
    private static final int MIN_MATCH = 3;
    private static final int MAX_MATCH = 258;
    private static final int MAX_DIST = WSIZE - (MAX_MATCH + MIN_MATCH + 1);

    /** The values a restart point records. */
    @Override
    public List<Integer> values() {
        return List.of(windowOffset, matchAvailable ? 1 : 0, matchLength, matchDistance);
    }

    /**
     * The state at input offset {@code input} from a restart point's {@code values}.
     *
     * @throws IllegalArgumentException if they are not four values of the right kinds (the rest is checked on resume)
     */
    public static LazyRestartState of(long input, List<Integer> values) {
        if (values.size() != VALUES || values.get(0) < 0 || values.get(1) < 0 || values.get(1) > 1) {
            throw new IllegalArgumentException("a zlib or GNU gzip restart point has " + VALUES
                    + " state values (window offset, byte pending 0 or 1, match length, match distance), not " + values);
        }
        return new LazyRestartState(input, values.get(0), values.get(1) == 1, values.get(2), values.get(3));
    }

    /** The state where an encoder stopped, its window starting at input offset {@code windowBase}. */
    static LazyRestartState at(long windowBase, int strstart, boolean matchAvailable, int matchLength, int matchStart) {
        boolean match = matchAvailable && matchLength >= MIN_MATCH;
        return new LazyRestartState(windowBase + strstart, strstart, matchAvailable, matchAvailable ? matchLength : MIN_MATCH - 1,
                match ? strstart - matchStart : 0);
    }

    /** Whether {@code level} is one of the fast levels (deflate_fast), whose chains a warm-up rebuilds ({@link FastRestart}). */
    static boolean fastLevel(int level) {
        return level >= 1 && level <= 3;
    }

    /**
     * Checks that this can be a fast level's block boundary (a block ends after a token, no byte
     * pending; the window at a multiple of 32 KiB) and that {@code history} bytes hold its warm-up's input.
     *
     * @throws IllegalArgumentException if not
     */
    void checkFastResumable(int history, String encoder) {
        long warmUp = input - FastRestart.warmUpStart(input);
        if (matchAvailable || matchLength != 2 || matchDistance != 0 || windowBase() < 0
                || windowBase() % WSIZE != 0 || windowOffset >= 2 * WSIZE || history < warmUp) {
            throw new IllegalArgumentException("not a block boundary of " + encoder + "'s levels 1 to 3 with " + history
                    + " bytes of history: " + this);
        }
    }

    /** The window's input offset (a multiple of its 32 KiB slides). */
    long windowBase() {
        return input - windowOffset;
    }

    /** Bytes of the input before the point the encoder's hash chains are rebuilt from: those still in the window, at most 32 KiB. */
    int history() {
        return Math.min(windowOffset, WSIZE);
    }

    /**
     * Puts the {@link #history} bytes before the point (the end of {@code history[offset..offset+length)})
     * in {@code window} at the point's place. Past the input, longest_match() may read stale bytes at the
     * end of the stream: once the window has slid, each is the byte a window size before it (a slide
     * copies the upper half down and leaves it), so those are copied so too.
     *
     * @throws IllegalArgumentException if the state cannot be one such an encoder stopped at, or history lacks bytes
     */
    void placeHistory(byte[] window, int windowSize, byte[] history, int offset, int length) {
        int w = windowOffset;
        if (windowBase() < 0 || windowBase() % WSIZE != 0 || w >= windowSize || matchLength < MIN_MATCH - 1 || matchLength > MAX_MATCH
                || matchDistance < 0 || matchDistance > MAX_DIST || (matchLength >= MIN_MATCH) != (matchDistance > 0)
                || !matchAvailable && matchLength >= MIN_MATCH) {
            throw new IllegalArgumentException("not a block boundary of a lazy-matching deflate: " + this);
        }
        int h = history();
        if (length < h) {
            throw new IllegalArgumentException("a restart point needs the " + h + " bytes of input before it, got " + length);
        }
        System.arraycopy(history, offset + length - h, window, w - h, h);
        if (windowBase() > 0) {
            int from = Math.max(w, w - h + WSIZE);
            int to = Math.min(windowSize, w + WSIZE);
            if (from < to) {
                System.arraycopy(window, from - WSIZE, window, from, to - from);
            }
        }
    }
}
