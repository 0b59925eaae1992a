package dev.layerfold.dedup.codec.restart;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;

import java.io.OutputStream;
import java.util.Optional;

/**
 * What an encoder family at one spec offers a parallel rebuild: where its restart points may lie,
 * how much input before and after one a segment reads, and the encoder of a segment from one. A
 * family gives it for the specs whose state at some block boundaries can be rebuilt from the input
 * before them ({@code EncoderFamily.restart}); that a rebuilt
 * state reproduces the original is never assumed, the proof ({@link ProvingMember}) checks every point.
 */
public interface RestartSupport {

    /** The input before a point that a rebuilt state reads for most families: DEFLATE's window. */
    int HISTORY = 32 * 1024;

    /**
     * How far apart points lie: a multiple of the family's block size near {@code target}, or
     * {@code target} for a family that ends a segment at its first block boundary at or past it.
     */
    long spacing(long target);

    /**
     * How much of the member's input before a point (or all of it, nearer the start) a segment
     * opened there must be given: {@link #HISTORY}, or more for a family that
     * rebuilds its state by a warm-up over the input before it.
     */
    int history();

    /** How much input past a segment's end its encoder may read before it ends the segment. */
    int lookahead();

    /**
     * An encoder for the segment that starts at {@code point}, with the state rebuilt from
     * {@code history[offset..offset+length)} (the member's input before the point, at least its last
     * {@link #history} bytes) and the point's state values, ending at the first block boundary at or
     * past input offset {@code end} ({@link Long#MAX_VALUE}: at the member's end).
     *
     * @throws IllegalArgumentException if the point's state does not fit the family
     */
    SegmentEncoder open(RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out);

    /** {@link #open} as a function, for the factories below. */
    @FunctionalInterface
    interface Opener {
        SegmentEncoder open(RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out);
    }

    /** A family whose encoder ends a segment at its first block boundary at or past the requested offset. */
    static RestartSupport nearTarget(int history, int lookahead, Opener opener) {
        return of(target -> target, history, lookahead, opener);
    }

    /** A family whose points lie at multiples of {@code block} bytes of input and that reads nothing past a segment's end. */
    static RestartSupport everyBlock(int block, int history, Opener opener) {
        return of(target -> Math.max(1, target / block) * block, history, 0, opener);
    }

    private static RestartSupport of(java.util.function.LongUnaryOperator spacing, int history, int lookahead, Opener opener) {
        return new RestartSupport() {
            @Override
            public long spacing(long target) {
                return spacing.applyAsLong(target);
            }

            @Override
            public int history() {
                return history;
            }

            @Override
            public int lookahead() {
                return lookahead;
            }

            @Override
            public SegmentEncoder open(RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
                return opener.open(point, end, history, offset, length, out);
            }
        };
    }

    /**
     * Finds an encoder spec's restart support. The family list that knows it lies above this package
     * ({@code identify.RestartableEncoders}), so the segment encoders here are handed one.
     */
    @FunctionalInterface
    interface Lookup {

        /** The support of {@code spec}'s family, or empty if it has no restart points. */
        Optional<RestartSupport> find(EncoderSpec spec);

        /** Whether members of {@code spec} can have restart points. */
        default boolean restartable(EncoderSpec spec) {
            return find(spec).isPresent();
        }

        /** How far apart points of {@code spec} lie near {@code target} ({@link RestartSupport#spacing}), or empty if the family has no restart points. */
        default Optional<Long> spacing(EncoderSpec spec, long target) {
            return find(spec).map(support -> support.spacing(target));
        }

        /** {@link RestartSupport#history}; {@link #HISTORY} for a spec without restart points. */
        default int history(EncoderSpec spec) {
            return find(spec).map(RestartSupport::history).orElse(HISTORY);
        }

        /** {@link RestartSupport#lookahead}; 0 for a spec without restart points. */
        default int lookahead(EncoderSpec spec) {
            return find(spec).map(RestartSupport::lookahead).orElse(0);
        }

        /**
         * {@link RestartSupport#open}.
         *
         * @throws IllegalArgumentException if the family has no restart points or the point's state does not fit it
         */
        default SegmentEncoder open(EncoderSpec spec, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
            return find(spec).orElseThrow(() -> new IllegalArgumentException("encoder " + spec + " has no restart points"))
                    .open(point, end, history, offset, length, out);
        }
    }
}
