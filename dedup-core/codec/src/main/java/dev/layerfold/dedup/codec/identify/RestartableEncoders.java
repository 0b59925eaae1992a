package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.recipe.RestartPoint;
import dev.layerfold.dedup.codec.restart.RestartSupport;
import dev.layerfold.dedup.codec.restart.SegmentEncoder;

import java.io.OutputStream;
import java.util.Optional;

/**
 * Restart points of the standard encoder families ({@link EncoderFamilies#standard()}): each family
 * says for which of its specs a member can be cut into segments and how ({@link RestartSupport});
 * a family or spec without them has its members encoded in one piece. That a rebuilt state really
 * reproduces the original is never assumed: the proof ({@link dev.layerfold.dedup.codec.restart.ProvingMember}) checks every point
 * against the layer's digest.
 */
public final class RestartableEncoders {

    /** The input between two points the finder aims at: a few MB, so a 32 MB layer has enough segments for several cores. */
    public static final long SPACING = 4L << 20;

    /** The standard families' restart support, as the segment encoders in {@code restart} are handed it. */
    public static final RestartSupport.Lookup STANDARD = spec -> EncoderFamilies.standard().restart(spec);

    private RestartableEncoders() {
    }

    /** Whether members of {@code spec} can have restart points. */
    public static boolean restartable(EncoderSpec spec) {
        return STANDARD.restartable(spec);
    }

    /** How far apart points of {@code spec} lie near {@code target} ({@link RestartSupport#spacing}), or empty if the family has no restart points. */
    public static Optional<Long> spacing(EncoderSpec spec, long target) {
        return STANDARD.spacing(spec, target);
    }

    /** {@link RestartSupport#history}; {@link RestartSupport#HISTORY} for a spec without restart points. */
    public static int history(EncoderSpec spec) {
        return STANDARD.history(spec);
    }

    /** {@link RestartSupport#lookahead}; 0 for a spec without restart points. */
    public static int lookahead(EncoderSpec spec) {
        return STANDARD.lookahead(spec);
    }

    /**
     * {@link RestartSupport#open}.
     *
     * @throws IllegalArgumentException if the family has no restart points or the point's state does not fit it
     */
    public static SegmentEncoder open(EncoderSpec spec, RestartPoint point, long end, byte[] history, int offset, int length, OutputStream out) {
        return STANDARD.open(spec, point, end, history, offset, length, out);
    }
}
