package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * The outcome of identifying one gzip member's encoder.
 *
 * @param encoder       the first candidate (in hint order) whose output matched, or {@link EncoderSpec#NONE}
 * @param wholeStream   true if it reproduced the member's whole deflate stream; false if identification
 *                      stopped at its budget and only a prefix was compared (a rebuild proves the rest)
 * @param comparedBytes how many decompressed bytes the candidates were fed
 * @param candidates    how many candidates were started (1 when the likeliest was right)
 */
public record Identification(EncoderSpec encoder, boolean wholeStream, long comparedBytes, int candidates) {
}
