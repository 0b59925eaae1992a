package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.container.GzipHeader;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.family.FirstBlock;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/** Makes the encoder an {@link EncoderSpec} names, writing raw deflate to {@code sink}. */
@FunctionalInterface
public interface EncoderFactory {

    /** @throws IllegalArgumentException if this factory does not know the spec's family or settings */
    DeflateEncoder create(EncoderSpec spec, OutputStream sink);

    /**
     * The spec of the same encoder with a sync flush right before the stream's end, for a member
     * that ends in an empty stored block and then the final one; empty if this factory has none.
     */
    default Optional<EncoderSpec> flushedBeforeFinish(EncoderSpec spec) {
        return Optional.empty();
    }

    /**
     * The spec of the encoder that writes what {@code spec} writes up to the final empty block, which it
     * writes as a fixed-Huffman block, for a member that ends so; empty if this factory has none.
     */
    default Optional<EncoderSpec> closedWithFixedBlock(EncoderSpec spec) {
        return Optional.empty();
    }

    /**
     * The decompressed input {@code running} must reproduce before it is taken while {@code waiting}
     * still holds candidates that may write the same bytes that far and differ only later (two
     * encoders sharing one deflate, one of them restarting at block boundaries); 0 if none may.
     */
    default long inputToTellApart(EncoderSpec running, List<EncoderSpec> waiting) {
        return 0;
    }

    /** Whether {@code spec} could have written the original's first block ({@link dev.layerfold.dedup.codec.family.EncoderFamily#couldHaveWritten}); true if this factory cannot tell. */
    default boolean couldHaveWritten(EncoderSpec spec, FirstBlock first) {
        return true;
    }

    /** How strongly the header's OS byte points at {@code spec}'s producers ({@link dev.layerfold.dedup.codec.family.EncoderFamily#osScore}); 0 if this factory cannot tell. */
    default int osScore(EncoderSpec spec, GzipHeader header) {
        return 0;
    }
}
