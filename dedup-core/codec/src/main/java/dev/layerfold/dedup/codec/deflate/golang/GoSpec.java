package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.FlushBeforeFinish;
import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.util.List;
import java.util.Optional;

/**
 * A {@code go} or {@code go127} spec: the level, and whether the producer sync-flushed the stream
 * right before its end (eStargz), stored as the one parameter {@value GoFamily#FLUSHED_BEFORE_FINISH}.
 */
public record GoSpec(String family, int level, boolean flushedBeforeFinish) implements FamilySpec {

    /** {@code spec} read as a Go spec, or empty if its parameters are neither none nor the flush marker. */
    public static Optional<GoSpec> read(EncoderSpec spec) {
        if (spec.params().isEmpty() || spec.params().equals(List.of(GoFamily.FLUSHED_BEFORE_FINISH))) {
            return Optional.of(new GoSpec(spec.family(), spec.level(), !spec.params().isEmpty()));
        }
        return Optional.empty();
    }

    /** @throws IllegalArgumentException if the parameters are neither none nor the flush marker */
    public static GoSpec decode(EncoderSpec spec) {
        return read(spec).orElseThrow(() -> new IllegalArgumentException("encoder " + spec + " has unknown parameters: " + spec.family()
                + " takes none, or " + GoFamily.FLUSHED_BEFORE_FINISH + " for a stream flushed before its end"));
    }

    /** The same encoder, flushed right before its end. */
    public GoSpec flushed() {
        return new GoSpec(family, level, true);
    }

    /** {@code encoder}, flushed before it finishes if the producer did. */
    public DeflateEncoder flushIfAsked(SyncFlushEncoder encoder) {
        return flushedBeforeFinish ? new FlushBeforeFinish(encoder) : encoder;
    }

    @Override
    public EncoderSpec stored() {
        return flushedBeforeFinish ? EncoderSpec.of(family, level, GoFamily.FLUSHED_BEFORE_FINISH) : EncoderSpec.of(family, level);
    }
}
