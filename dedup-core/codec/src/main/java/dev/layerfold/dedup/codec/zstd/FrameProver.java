package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostFrameProver;

import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Writes a zstd frame the way a restore from restart points would, in pieces each encoded from the
 * input before it alone, recording where each starts and the digest of its bytes: candidate points,
 * which hold once whoever checks the bytes written found them the original's.
 */
public interface FrameProver extends ZstdEncoder {

    /** The frame's candidate restart points, its start first. */
    List<ZstdRestartPoint> candidates();

    /** The prover of {@code frame}'s encoder, pieces about {@code spacing} bytes of content apart, or empty if it has no restart points. */
    static Optional<FrameProver> of(ZstdFrame.Compressed frame, long spacing, OutputStream sink) {
        if (LibzstdFrameProver.proves(frame, spacing)) {
            return Optional.of(new LibzstdFrameProver(LibzstdJobs.of(frame).orElseThrow(), frame, spacing, sink));
        }
        return KlauspostFrameProver.of(frame, spacing, sink).map(FrameProver.class::cast);
    }

    /** Whether {@link #of} gives a prover for {@code frame}. */
    static boolean proves(ZstdFrame.Compressed frame, long spacing) {
        return LibzstdFrameProver.proves(frame, spacing) || KlauspostFrameProver.proves(frame, spacing);
    }
}
