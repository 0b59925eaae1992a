package dev.layerfold.dedup.codec.deflate.zlib;

import java.util.List;

/**
 * What zlib's levels 4 to 9 (deflate_slow) carry across a block boundary at input offset
 * {@code input} beyond the input itself: the point's place in the window ({@code windowOffset}:
 * where the next 32 KiB slide falls), and the lazy matcher's state. deflate_slow ends a block in two
 * places: after a match (nothing pending) or after a literal while the byte at the point waits with
 * its own match ({@code matchAvailable}, the match's length and distance; 2 and 0: none found). The
 * hash chains follow from the 32 KiB of input before the point.
 */
public record ZlibRestartState(long input, int windowOffset, boolean matchAvailable, int matchLength, int matchDistance) {

    /** How many values {@link #values} has. */
    public static final int VALUES = 4;

    /** The values a restart point records. */
    public List<Integer> values() {
        return List.of(windowOffset, matchAvailable ? 1 : 0, matchLength, matchDistance);
    }

    /**
     * The state at input offset {@code input} from a restart point's {@code values}.
     *
     * @throws IllegalArgumentException if they are not four values of the right kinds (the rest is checked on resume)
     */
    public static ZlibRestartState of(long input, List<Integer> values) {
        if (values.size() != VALUES || values.get(0) < 0 || values.get(1) < 0 || values.get(1) > 1) {
            throw new IllegalArgumentException("a zlib restart point has " + VALUES
                    + " state values (window offset, byte pending 0 or 1, match length, match distance), not " + values);
        }
        return new ZlibRestartState(input, values.get(0), values.get(1) == 1, values.get(2), values.get(3));
    }
}
