package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import java.util.List;

/**
 * What Go 1.27's levels 7 to 9 need to go on at a block boundary at input offset {@code input}
 * beyond the input itself. Their Huffman table usually stays open across blocks, and only the
 * encoder's own path decides it, so a point carries the lazy matcher's state at {@code opener},
 * the boundary where the block that headed the open table began ({@code input} itself with none
 * open): a resume starts there and encodes the blocks up to the point again into nothing. The
 * other fields are the state at {@code opener}: where the window starts (it slides by 32 KiB once
 * nearly full, so this is where the next slide falls and how far back matches reach), the lazy
 * matcher's pending byte and the match it found there, the run of literals that makes it skip
 * ahead and the skipped literals still to emit (a block may end among them), and where the step
 * under way began (level 9 prices literals by the 32 KiB from there).
 * The hash chains follow from the 32 KiB of input before the opener.
 */
record Go127LazyRestartState(long input, long opener, long windowStart, boolean byteAvailable, int length, int offset,
                                    int literalCounter, int skipping, long stepStart) implements BoundarySegment.State {

    /** How many values {@link #values} has. */
    public static final int VALUES = 8;

    /** The same opener's state, for a point at {@code point}. */
    Go127LazyRestartState at(long point) {
        return new Go127LazyRestartState(point, opener, windowStart, byteAvailable, length, offset, literalCounter, skipping, stepStart);
    }

    /**
     * The values a restart point records: its distance from the opener, the opener's distance from
     * the window start, the lazy matcher's pending byte (0/1), match length and offset, the literal
     * run, the skipped literals left (the last one included; 0: not skipping), and the opener's
     * distance from the step's start.
     */
    @Override
    public List<Integer> values() {
        return List.of(Math.toIntExact(input - opener), Math.toIntExact(opener - windowStart), byteAvailable ? 1 : 0, length, offset,
                literalCounter, skipping, Math.toIntExact(opener - stepStart));
    }

    /**
     * The state at input offset {@code input} from a restart point's {@code values}.
     *
     * @throws IllegalArgumentException if they are not eight values of the right kinds (the rest is checked on resume)
     */
    public static Go127LazyRestartState of(long input, List<Integer> values) {
        if (values.size() != VALUES || values.get(2) < 0 || values.get(2) > 1) {
            throw new IllegalArgumentException("a Go 1.27 level 7-9 restart point has " + VALUES + " state values (opener distance, window"
                    + " distance, byte pending 0 or 1, length, offset, literal run, literals left to skip, step distance), not " + values);
        }
        long opener = input - values.get(0);
        return new Go127LazyRestartState(input, opener, opener - values.get(1), values.get(2) == 1, values.get(3), values.get(4),
                values.get(5), values.get(6), opener - values.get(7));
    }
}
