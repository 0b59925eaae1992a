package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import dev.layerfold.dedup.codec.restart.RestartSupport;

import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * One DEFLATE encoder family a recipe can name ({@link EncoderSpec#family()}): everything the codec
 * knows of it in one place, its candidates, its encoder, what it contributes to identification and
 * its restart points. One implementation per family lives in the family's own package; the codec
 * reaches them only through {@code identify.EncoderFamilies}, so adding a family adds one class there (as
 * klauspost/compress adds one {@code fastEnc} per level).
 */
public interface EncoderFamily {

    /** The family name recipes store ({@link EncoderSpec#family()}). */
    String name();

    /**
     * The specs of this family tried on every gzip member, each with its rank among all families'
     * candidates (lowest first; producer hints reorder them per member). Go's levels are tried side
     * by side across the Go-based families, so ranks interleave: see {@code identify.EncoderFamilies#candidates()}.
     */
    List<Candidate> candidates();

    /**
     * {@code spec} read as this family's typed spec: where its positional parameters are interpreted.
     *
     * @throws IllegalArgumentException if the parameters are not this family's
     */
    FamilySpec decode(EncoderSpec spec);

    /**
     * The encoder {@code spec} names, writing raw deflate to {@code sink}.
     *
     * @throws IllegalArgumentException if the spec's settings are not this family's
     */
    DeflateEncoder encoder(EncoderSpec spec, OutputStream sink);

    /**
     * Whether {@code spec} could have ended the original's first block where it ends
     * ({@link FirstBlock#endedByEncoder()} holds): each encoder ends blocks by its own rule, so
     * most candidates are ruled out before they compress a byte. A family without a rule is always run.
     */
    default boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return true;
    }

    /**
     * How strongly a gzip header's OS byte points at this family's producers (0: not at all); added
     * to the level's score from the XFL byte ({@code identify.ProducerHints}).
     */
    default int osScore(EncoderSpec spec, int os) {
        return 0;
    }

    /** See {@code identify.EncoderFactory#flushedBeforeFinish}. */
    default Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        return Optional.empty();
    }

    /** See {@code identify.EncoderFactory#closedWithFixedBlock}. */
    default Optional<EncoderSpec> closedWithFixedBlock(EncoderSpec spec) {
        return Optional.empty();
    }

    /** See {@code identify.EncoderFactory#inputToTellApart}; asked of {@code running}'s family. */
    default long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        return 0;
    }

    /** Where members of {@code spec} can be cut into segments encoded apart, or empty if they are encoded in one piece. */
    default Optional<RestartSupport> restart(EncoderSpec spec) {
        return Optional.empty();
    }

    /** A candidate spec and its rank among all families' candidates, lowest tried first. */
    record Candidate(EncoderSpec spec, int rank) {

        /**
         * The family's levels (no other settings) in the order given, ranked from {@code firstRank} in
         * steps of {@code rankStep}: steps over 1 leave room for another family's levels in between.
         */
        public static List<Candidate> levels(String family, List<Integer> levels, int firstRank, int rankStep) {
            return IntStream.range(0, levels.size())
                    .mapToObj(i -> new Candidate(EncoderSpec.of(family, levels.get(i)), firstRank + rankStep * i)).toList();
        }
    }
}
