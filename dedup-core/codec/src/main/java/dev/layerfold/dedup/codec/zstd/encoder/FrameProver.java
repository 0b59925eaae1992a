package dev.layerfold.dedup.codec.zstd.encoder;

import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;

import java.util.List;

/**
 * Writes a zstd frame the way a restore from restart points would, in pieces each encoded from the
 * input before it alone, recording where each starts and the digest of its bytes: candidate points,
 * which hold once whoever checks the bytes written found them the original's.
 */
public interface FrameProver extends ZstdEncoder {

    /** The frame's candidate restart points, its start first. */
    List<ZstdRestartPoint> candidates();
}
