package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.UnmatchedMember;
import dev.layerfold.dedup.codec.recipe.GzipMember;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.ZstdIdentifier;

import java.util.List;
import java.util.Optional;

/**
 * What splitting a layer produced besides the bodies given to the sink.
 *
 * @param recipe          how to rebuild the blob; rebuildable only if {@link Recipe#reproducible()}
 * @param identifications per gzip member or compressed zstd frame, how its encoder was found (empty for a plain tar)
 * @param entries         tar entries seen (extension headers not counted)
 * @param tarDamage       why part of the tar could not be parsed and was kept as one opaque body
 */
public record SplitResult(Recipe recipe, List<Identification> identifications, int entries, Optional<String> tarDamage) {

    public SplitResult {
        identifications = List.copyOf(identifications);
    }

    /**
     * Why the layer cannot be rebuilt, for a person: the first gzip member or zstd frame no known
     * encoder reproduced, and the producer its header points to. Empty if the recipe is reproducible.
     */
    public Optional<String> unmatchedReason() {
        for (GzipMember member : recipe.members()) {
            if (member.encoder().isNone()) {
                return Optional.of(UnmatchedMember.reason(member.header()));
            }
        }
        for (ZstdFrame frame : recipe.frames()) {
            if (frame instanceof ZstdFrame.Compressed compressed && compressed.encoder().isNone()) {
                return Optional.of(ZstdIdentifier.reason(ZstdFrameHeader.parse(compressed.header())));
            }
        }
        return Optional.empty();
    }
}
