package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.identify.EncoderFamilies;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The first block's shape is decoded from the original deflate bytes as they arrive, and every
 * standard encoder's own first block fits its rule (so the rule never drops the right encoder; the
 * real producers' layers in RealProducerLayerTest are identified through it too).
 */
class FirstBlockTest {

    private static final byte[] TEXT = text(800_000);

    static List<EncoderSpec> candidates() {
        return StandardEncoders.CANDIDATES;
    }

    @ParameterizedTest
    @MethodSource("candidates")
    void everyStandardEncodersFirstBlockFitsItsOwnRule(EncoderSpec spec) throws IOException {
        byte[] stream = encode(spec, TEXT);

        // Undecided (a first block longer than the reader keeps, as Huffman-only tables reused
        // across windows make) rules out nothing.
        readInPieces(stream).ifPresent(first ->
                assertThat(EncoderFamilies.standard().couldHaveWritten(spec, first)).as("%s wrote %s", spec, first).isTrue());
    }

    @Test
    void theFirstBlockRulesOutMostOtherEncoders() throws IOException {
        FirstBlock first = readInPieces(encode(EncoderSpec.of(StandardEncoders.GO, 6), TEXT)).orElseThrow();

        List<EncoderSpec> possible = StandardEncoders.CANDIDATES.stream()
                .filter(spec -> EncoderFamilies.standard().couldHaveWritten(spec, first)).toList();

        assertThat(first.endedByEncoder()).isTrue();
        assertThat(first.symbols()).isEqualTo(16384);
        assertThat(possible).contains(EncoderSpec.of(StandardEncoders.GO, 6)).hasSizeLessThan(StandardEncoders.CANDIDATES.size() / 3);
    }

    @Test
    void aFinalFirstBlockRulesOutNothing() throws IOException {
        FirstBlock first = readInPieces(encode(EncoderSpec.of(StandardEncoders.ZLIB, 6), "short".getBytes())).orElseThrow();

        assertThat(first.last()).isTrue();
        assertThat(StandardEncoders.CANDIDATES).allMatch(spec -> EncoderFamilies.standard().couldHaveWritten(spec, first));
    }

    private static Optional<FirstBlock> readInPieces(byte[] stream) {
        FirstBlock.Reader reader = new FirstBlock.Reader();
        Random random = new Random(stream.length);
        for (int position = 0; position < stream.length; ) {
            int n = Math.min(stream.length - position, 1 + random.nextInt(20_000));
            Optional<FirstBlock> first = reader.append(stream, position, n);
            position += n;
            if (first.isPresent()) {
                return first;
            }
        }
        return reader.finish();
    }

    private static byte[] encode(EncoderSpec spec, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DeflateEncoder encoder = StandardEncoders.factory().create(spec, out);
        encoder.write(input, 0, input.length);
        encoder.finish();
        return out.toByteArray();
    }

    /** Text with some structure, so every level finds matches and ends full blocks. */
    private static byte[] text(int size) {
        StringBuilder text = new StringBuilder(size + 100);
        Random random = new Random(7);
        String[] words = {"layer", "registry", "deflate", "tar", "header", "file", "content", "digest", "the", "of"};
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(random.nextInt(8) == 0 ? "\n" : " ");
        }
        return text.substring(0, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
