package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.deflate.klauspost.PgzipEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.IOException;
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
        Optional<Integer> block = blockSize(spec);
        return block.map(size -> Math.max(1, target / size) * size);
    }

    /** The block size of a family whose blocks start afresh, or empty. */
    private static Optional<Integer> blockSize(EncoderSpec spec) {
        return switch (spec.family()) {
            case StandardEncoders.PIGZ -> {
                PigzSettings settings = StandardEncoders.pigzSettings(spec);
                yield settings.singleThread() ? Optional.empty() : Optional.of(settings.blockSize());
            }
            case StandardEncoders.PGZIP -> spec.params().isEmpty() ? Optional.empty() : Optional.of(spec.params().getFirst());
            default -> Optional.empty();
        };
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
            throw new IllegalArgumentException("a " + spec.family() + " restart point lies on a byte boundary and has no state values");
        }
        int block = blockSize(spec).orElseThrow();
        if (point.inputOffset() % block != 0) {
            throw new IllegalArgumentException("a " + spec.family() + " restart point lies on a block boundary (" + block + " bytes), not at "
                    + point.inputOffset());
        }
        return StandardEncoders.PIGZ.equals(spec.family()) ? pigz(spec, point, history, offset, length, out)
                : pgzip(spec, history, offset, length, out);
    }

    private static SegmentEncoder pigz(EncoderSpec spec, RestartPoint point, byte[] history, int offset, int length, OutputStream out) {
        PigzSettings settings = StandardEncoders.pigzSettings(spec);
        PigzEncoder pigz = point.inputOffset() == 0 ? PigzEncoder.create(out, settings) : PigzEncoder.resume(out, settings, history, offset, length);
        return new SegmentEncoder() {
            @Override
            public void write(byte[] data, int off, int len) throws IOException {
                pigz.write(data, off, len);
            }

            @Override
            public void endAtRestartPoint() throws IOException {
                pigz.endBlock();
            }

            @Override
            public void finish() throws IOException {
                pigz.finish();
            }
        };
    }

    /** pgzip compresses a block as soon as it is full: at a point there is nothing left to write. */
    private static SegmentEncoder pgzip(EncoderSpec spec, byte[] history, int offset, int length, OutputStream out) {
        PgzipEncoder pgzip = PgzipEncoder.resume(out, spec.level(), spec.params().getFirst(), StandardEncoders.pgzipRelease(spec),
                history, offset, length);
        return new SegmentEncoder() {
            @Override
            public void write(byte[] data, int off, int len) throws IOException {
                pgzip.write(data, off, len);
            }

            @Override
            public void endAtRestartPoint() {
            }

            @Override
            public void finish() throws IOException {
                pgzip.finish();
            }
        };
    }
}
