package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/** A {@code gzip} spec: GNU gzip's level, no parameters. */
public record GnuGzipSpec(int level) implements FamilySpec {

    /** @throws IllegalArgumentException with parameters */
    public static GnuGzipSpec decode(EncoderSpec spec) {
        if (!spec.params().isEmpty()) {
            throw new IllegalArgumentException("encoder " + spec + " needs 0 parameters, has " + spec.params().size());
        }
        return new GnuGzipSpec(spec.level());
    }

    @Override
    public EncoderSpec stored() {
        return EncoderSpec.of(GnuGzipFamily.NAME, level);
    }
}
