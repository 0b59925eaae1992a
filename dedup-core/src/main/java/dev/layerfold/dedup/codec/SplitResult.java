package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.recipe.Recipe;

import java.util.List;
import java.util.Optional;

/**
 * What splitting a layer produced besides the bodies given to the sink.
 *
 * @param recipe          how to rebuild the blob; rebuildable only if {@link Recipe#reproducible()}
 * @param identifications per gzip member, how its encoder was found (empty for a plain tar)
 * @param entries         tar entries seen (extension headers not counted)
 * @param tarDamage       why part of the tar could not be parsed and was kept as one opaque body
 */
public record SplitResult(Recipe recipe, List<Identification> identifications, int entries, Optional<String> tarDamage) {

    public SplitResult {
        identifications = List.copyOf(identifications);
    }
}
