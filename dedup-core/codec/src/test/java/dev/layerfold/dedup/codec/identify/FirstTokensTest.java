package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.family.FirstBlock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The token check never rejects the encoder that wrote a stream (every encoder that says it reports
 * its tokens reports its first block's symbols, on text, on binary and on incompressible input) and
 * rejects a wrong one long before its first block is written.
 */
class FirstTokensTest {

    private static final List<byte[]> INPUTS = List.of(text(300_000), binary(300_000), random(100_000), mixed());

    static List<EncoderSpec> reporting() {
        return StandardEncoders.CANDIDATES.stream()
                .filter(spec -> StandardEncoders.factory().create(spec, OutputStream.nullOutputStream()).observeTokens(new FirstTokens(new int[0])))
                .toList();
    }

    @ParameterizedTest
    @MethodSource("reporting")
    void anEncoderReportsItsOwnFirstBlockToken(EncoderSpec spec) throws IOException {
        for (byte[] input : INPUTS) {
            FirstBlock first = firstBlock(spec, input);
            if (first.type() == FirstBlock.STORED) {
                continue;
            }
            DeflateEncoder candidate = StandardEncoders.factory().create(spec, OutputStream.nullOutputStream());

            assertThat(candidate.observeTokens(new FirstTokens(first.tokens()))).isTrue();
            candidate.write(input, 0, input.length);
            candidate.finish();
        }
    }

    @ParameterizedTest
    @MethodSource("otherFamilies")
    void anotherEncoderIsRejectedWithinItsFirstThousandTokens(EncoderSpec spec) throws IOException {
        byte[] input = text(300_000);
        int[] prefix = Arrays.copyOf(firstBlock(EncoderSpec.of(StandardEncoders.GO, 6), input).tokens(), 1000);
        DeflateEncoder candidate = StandardEncoders.factory().create(spec, OutputStream.nullOutputStream());
        candidate.observeTokens(new FirstTokens(prefix));

        assertThatThrownBy(() -> {
            candidate.write(input, 0, input.length);
            candidate.finish();
        }).isInstanceOf(FirstTokens.Differ.class);
    }

    static List<EncoderSpec> otherFamilies() {
        return List.of(EncoderSpec.of(StandardEncoders.GO, 2), EncoderSpec.of(StandardEncoders.ZLIB, 6), EncoderSpec.of(StandardEncoders.ZLIB, 9),
                EncoderSpec.of(StandardEncoders.GNU_GZIP, 6), EncoderSpec.of(StandardEncoders.GNU_GZIP, 9));
    }

    private static FirstBlock firstBlock(EncoderSpec spec, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DeflateEncoder encoder = StandardEncoders.factory().create(spec, out);
        encoder.write(input, 0, input.length);
        encoder.finish();
        FirstBlock.Reader reader = new FirstBlock.Reader();
        reader.append(out.toByteArray(), 0, out.size());
        return reader.finish().orElseThrow();
    }

    private static byte[] text(int size) {
        StringBuilder text = new StringBuilder(size + 100);
        Random random = new Random(11);
        String[] words = {"layer", "registry", "deflate", "tar", "header", "file", "content", "digest", "the", "of"};
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(1000)).append(random.nextInt(8) == 0 ? "\n" : " ");
        }
        return text.substring(0, size).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The JVM's own library: machine code, tables and runs of zeros. */
    private static byte[] binary(int size) {
        try {
            byte[] library = Files.readAllBytes(Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so"));
            return Arrays.copyOf(library, Math.min(size, library.length));
        } catch (IOException e) {
            return random(size);
        }
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(3).nextBytes(bytes);
        return bytes;
    }

    /** Incompressible bytes, then text: a stored or literal-heavy block first. */
    private static byte[] mixed() {
        byte[] noise = random(40_000);
        byte[] words = text(200_000);
        byte[] both = Arrays.copyOf(noise, noise.length + words.length);
        System.arraycopy(words, 0, both, noise.length, words.length);
        return both;
    }
}
