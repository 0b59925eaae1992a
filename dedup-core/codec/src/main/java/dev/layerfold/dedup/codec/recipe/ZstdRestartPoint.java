package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;

/**
 * A block boundary of a klauspost/compress/zstd frame where its encoder can be started again,
 * verified when the layer was split: the frame's content from {@code inputOffset} on, encoded from a
 * warm-up over the input before it with {@code patch} written into the match tables, gave exactly
 * the original's blocks up to the next point. A frame's first point is its start (offsets 0).
 *
 * <p>The segment of a point is the frame's bytes from {@code outputOffset} to the next point's, or
 * for the last point to the frame's end less its 4-byte checksum, which covers all of the content and
 * is computed over it as a restore goes. The first segment holds the frame's header. The digest is
 * over these bytes, so a segment encoded alone can be checked before it goes out.
 *
 * @param inputOffset   offset in the frame's content, a block boundary
 * @param outputOffset  offset of the segment's first byte in the frame
 * @param patch         the match-table slots the segment reads that the warm-up leaves otherwise
 *                      than the Writer had them (the encoder's own coding); empty at the frame's start
 * @param segmentSha256 sha256 of the segment's bytes
 */
public record ZstdRestartPoint(long inputOffset, long outputOffset, byte[] patch, byte[] segmentSha256) {

    /** Larger patches are refused as a damaged recipe's: every slot of SpeedDefault's tables patched takes less. */
    public static final int MAX_PATCH = 4 << 20;

    public ZstdRestartPoint {
        if (inputOffset < 0 || outputOffset < 0 || inputOffset == 0 != (outputOffset == 0)) {
            throw new IllegalArgumentException("a restart point's offsets are both 0 or both positive, not " + inputOffset + " and " + outputOffset);
        }
        if (patch.length > MAX_PATCH) {
            throw new IllegalArgumentException("a restart point's patch has at most " + MAX_PATCH + " bytes, got " + patch.length);
        }
        if (segmentSha256.length != 32) {
            throw new IllegalArgumentException("a segment digest has 32 bytes, got " + segmentSha256.length);
        }
        patch = patch.clone();
        segmentSha256 = segmentSha256.clone();
    }

    @Override
    public byte[] patch() {
        return patch.clone();
    }

    @Override
    public byte[] segmentSha256() {
        return segmentSha256.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ZstdRestartPoint p && inputOffset == p.inputOffset && outputOffset == p.outputOffset
                && Arrays.equals(patch, p.patch) && Arrays.equals(segmentSha256, p.segmentSha256);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(inputOffset) * 31 + Long.hashCode(outputOffset);
    }
}
