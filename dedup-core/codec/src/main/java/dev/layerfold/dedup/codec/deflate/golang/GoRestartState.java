package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import java.util.List;

/**
 * What Go's levels 4 to 9 carry across a block boundary at input offset {@code input} beyond the
 * input itself: where the window starts (it slides by 32 KiB once nearly full, so this is where
 * the next slide falls and how far back matches reach), and the lazy matcher's pending byte and
 * the match it found there. The hash chains follow from the 32 KiB of input before the point.
 * Levels 2 and 3 carry the same values, the matcher's always empty (no byte pending, length 3,
 * offset 0); their chains are rebuilt by a warm-up over more input.
 */
public record GoRestartState(long input, long windowStart, boolean byteAvailable, int length, int offset) implements BoundarySegment.State {

    /** How many values {@link #values} has. */
    public static final int VALUES = 4;

    /** The values a restart point records: the point's distance from the window start, then the lazy matcher's. */
    @Override
    public List<Integer> values() {
        return List.of(Math.toIntExact(input - windowStart), byteAvailable ? 1 : 0, length, offset);
    }

    /**
     * The state at input offset {@code input} from a restart point's {@code values}.
     *
     * @throws IllegalArgumentException if they are not four values of the right kinds (the rest is checked on resume)
     */
    public static GoRestartState of(long input, List<Integer> values) {
        if (values.size() != VALUES || values.get(1) < 0 || values.get(1) > 1) {
            throw new IllegalArgumentException("a Go restart point has " + VALUES + " state values (window distance, byte pending 0 or 1, length, offset), not " + values);
        }
        return new GoRestartState(input, input - values.get(0), values.get(1) == 1, values.get(2), values.get(3));
    }
}
