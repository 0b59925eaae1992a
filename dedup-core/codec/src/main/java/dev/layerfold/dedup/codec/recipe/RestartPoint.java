package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;
import java.util.List;

/**
 * A place in a gzip member's deflate stream where its encoder can be started again from the input
 * alone, verified when the layer was split: encoding the input from {@code inputOffset} on, from a
 * state rebuilt from the bytes before it and {@code state}, gave exactly the original's bits up to
 * the next point. A member's first point is its start (offsets 0).
 *
 * <p>The segment of a point is its own bits, from {@code outputBitOffset} to the next point's (or
 * the member's end), as bytes: from byte {@code outputBitOffset / 8} to the byte holding its last
 * bit, with the bits outside the segment zero. Points on byte boundaries (pigz, pgzip) make these
 * the original's bytes; a point inside a byte (Go) has that byte shared by the two segments, and
 * the original's byte is the OR of theirs. The digest is over these bytes, so a segment encoded
 * alone can be checked.
 *
 * @param inputOffset     offset in the member's uncompressed bytes
 * @param outputBitOffset offset in the member's deflate stream, in bits
 * @param state           family-specific values the rebuilt state needs beyond the input (none for pigz; Go's in {@code GoRestartState})
 * @param segmentSha256   sha256 of the segment's bytes, checked when a restore starts here
 */
public record RestartPoint(long inputOffset, long outputBitOffset, List<Integer> state, byte[] segmentSha256) {

    public static final int MAX_STATE_VALUES = 16;

    public RestartPoint {
        if (inputOffset < 0 || outputBitOffset < 0) {
            throw new IllegalArgumentException("restart point offsets must not be negative");
        }
        if (state.size() > MAX_STATE_VALUES) {
            throw new IllegalArgumentException("a restart point holds at most " + MAX_STATE_VALUES + " state values, got " + state.size());
        }
        if (segmentSha256.length != 32) {
            throw new IllegalArgumentException("a segment digest has 32 bytes, got " + segmentSha256.length);
        }
        state = List.copyOf(state);
        segmentSha256 = segmentSha256.clone();
    }

    /** Byte offset of the segment's first byte in the member's deflate stream. */
    public long outputByteOffset() {
        return outputBitOffset >>> 3;
    }

    @Override
    public byte[] segmentSha256() {
        return segmentSha256.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RestartPoint p && inputOffset == p.inputOffset && outputBitOffset == p.outputBitOffset
                && state.equals(p.state) && Arrays.equals(segmentSha256, p.segmentSha256);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(inputOffset) * 31 + Long.hashCode(outputBitOffset);
    }
}
