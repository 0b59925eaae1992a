package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * A stored {@link EncoderSpec} as its family reads it: the family name and positional ints
 * interpreted once, in one place per family ({@link EncoderFamily#decode}), into a record whose
 * fields say what they are. Recipes keep storing the {@link EncoderSpec} ({@link #stored()}), so
 * their bytes do not change.
 */
public interface FamilySpec {

    /** The spec as recipes store it. */
    EncoderSpec stored();
}
