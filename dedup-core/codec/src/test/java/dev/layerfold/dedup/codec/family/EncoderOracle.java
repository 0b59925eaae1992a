package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.IOException;

/**
 * The real producer of an encoder family, as the contract suites ask it: "encode these bytes as you
 * would with this spec". Each implementation wraps the family's existing oracle (a Go program, the
 * system zlib, the gzip or pigz binary), which aborts the calling test where the tool is missing
 * (fails it under CI).
 */
@FunctionalInterface
public interface EncoderOracle {

    /** The raw deflate stream (no gzip header or trailer) the real producer writes for {@code input} at {@code spec}. */
    byte[] deflate(EncoderSpec spec, byte[] input) throws IOException;
}
