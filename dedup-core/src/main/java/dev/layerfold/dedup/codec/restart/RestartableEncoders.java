package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.OutputStream;
import java.util.Optional;

/**
 * The encoder families whose state at some block boundaries can be rebuilt from the input before
 * them, and where those boundaries may lie. A family missing here has no restart points: its
 * members are encoded in one piece, as before. That a rebuilt state really reproduces the original
 * is never assumed: {@link RestartPointFinder} checks every point against the original bits.
 *
 * <ul>
 *   <li>{@code pigz} (several threads, the default code path): every block is compressed from a
 *       reset stream with the previous 32 KiB as dictionary and ends on a byte boundary; points lie
 *       at block boundaries and need no state values.</li>
 * </ul>
 */
public final class RestartableEncoders {

    /** The input between two points the finder aims at: a few MB, so a 32 MB layer has enough segments for several cores. */
    public static final long SPACING = 4L << 20;
    /** The input before a point that a rebuilt state reads: DEFLATE's window. */
    public static final int HISTORY = 32 * 1024;

    private RestartableEncoders() {
    }

    /** Whether members of {@code spec} can have restart points. */
    public static boolean restartable(EncoderSpec spec) {
        return spacing(spec, SPACING).isPresent();
    }

    /**
     * How far apart points of {@code spec} lie: a multiple of its block size near {@code target},
     * or empty if the family has no restart points.
     */
    public static Optional<Long> spacing(EncoderSpec spec, long target) {
        if (!StandardEncoders.PIGZ.equals(spec.family())) {
            return Optional.empty();
        }
        PigzSettings settings = StandardEncoders.pigzSettings(spec);
        if (settings.singleThread()) {
            return Optional.empty();
        }
        long blocks = Math.max(1, target / settings.blockSize());
        return Optional.of(blocks * settings.blockSize());
    }

    /**
     * An encoder for the segment that starts at {@code point}, with the state rebuilt from
     * {@code history} (the member's input before the point, at least its last {@link #HISTORY}
     * bytes) and the point's state values.
     *
     * @throws IllegalArgumentException if the family has no restart points or the point's state does not fit it
     */
    public static SegmentEncoder open(EncoderSpec spec, RestartPoint point, byte[] history, int offset, int length, OutputStream out) {
        if (!restartable(spec)) {
            throw new IllegalArgumentException("encoder " + spec + " has no restart points");
        }
        if (!point.state().isEmpty() || point.outputBitOffset() % 8 != 0) {
            throw new IllegalArgumentException("a pigz restart point lies on a byte boundary and has no state values");
        }
        PigzSettings settings = StandardEncoders.pigzSettings(spec);
        if (point.inputOffset() % settings.blockSize() != 0) {
            throw new IllegalArgumentException("a pigz restart point lies on a block boundary (" + settings.blockSize() + " bytes), not at "
                    + point.inputOffset());
        }
        PigzEncoder pigz = point.inputOffset() == 0 ? PigzEncoder.create(out, settings) : PigzEncoder.resume(out, settings, history, offset, length);
        return new SegmentEncoder() {
            @Override
            public void write(byte[] data, int off, int len) throws java.io.IOException {
                pigz.write(data, off, len);
            }

            @Override
            public void endAtRestartPoint() throws java.io.IOException {
                pigz.endBlock();
            }

            @Override
            public void finish() throws java.io.IOException {
                pigz.finish();
            }
        };
    }
}
