package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.OutputStream;

/** Makes the encoder an {@link EncoderSpec} names, writing raw deflate to {@code sink}. */
@FunctionalInterface
public interface EncoderFactory {

    /** @throws IllegalArgumentException if this factory does not know the spec's family or settings */
    DeflateEncoder create(EncoderSpec spec, OutputStream sink);

    /**
     * Whether the encoder {@code spec} names reports its tokens ({@link DeflateEncoder#observeTokens}),
     * so that identification can start it beside others at little cost; false when unsure.
     */
    default boolean reportsTokens(EncoderSpec spec) {
        return false;
    }
}
