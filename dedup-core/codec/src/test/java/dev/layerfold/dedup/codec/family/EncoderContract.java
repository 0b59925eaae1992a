package dev.layerfold.dedup.codec.family;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link EncoderFamily} must do, run once per family (as storage's port contracts are):
 * its encoder writes the real producer's bytes for each sampled candidate and each
 * {@linkplain GeneratedInputs generated input}, and the family's name, candidates and spec decoding
 * hold together. A subclass says only which family and which oracle.
 */
public abstract class EncoderContract {

    private static final long SEED = 0x1a7e2f01dL;

    /** The family under test. */
    protected abstract EncoderFamily family();

    /** The real producer the family reproduces. */
    protected abstract EncoderOracle oracle();

    /** The specs compared with the oracle: the family's first three candidates (the likeliest). */
    protected List<EncoderSpec> specs() {
        return family().candidates().stream().limit(3).map(EncoderFamily.Candidate::spec).toList();
    }

    /** A spec of this family's name that no decoding accepts. */
    protected EncoderSpec invalidSpec() {
        return EncoderSpec.of(family().name(), 6, 7, 7, 7, 7, 7);
    }

    @TestFactory
    Stream<DynamicTest> encoderWritesTheRealProducersBytes() {
        List<GeneratedInputs.Named> inputs = GeneratedInputs.standard(SEED);
        return specs().stream().flatMap(spec -> inputs.stream().map(input -> DynamicTest.dynamicTest(spec + " on " + input, () ->
                assertThat(encode(spec, input.data())).as("%s on %s", spec, input).isEqualTo(oracle().deflate(spec, input.data())))));
    }

    @Test
    void everyCandidateCarriesTheFamilysName() {
        assertThat(family().candidates()).isNotEmpty()
                .allSatisfy(candidate -> assertThat(candidate.spec().family()).isEqualTo(family().name()));
    }

    @Test
    void everyCandidateDecodesAndIsStoredAsItCame() {
        for (EncoderFamily.Candidate candidate : family().candidates()) {
            FamilySpec decoded = family().decode(candidate.spec());
            assertThat(decoded.stored()).as("%s decoded and stored", candidate.spec()).isEqualTo(candidate.spec());
            assertThat(family().decode(decoded.stored())).isEqualTo(decoded);
        }
    }

    @Test
    void anInvalidSpecIsRefused() {
        EncoderSpec invalid = invalidSpec();
        assertThatThrownBy(() -> family().decode(invalid)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> family().encoder(invalid, new ByteArrayOutputStream())).isInstanceOf(IllegalArgumentException.class);
    }

    /** The family's encoder over {@code input}, written in a few uneven pieces as a stream reaches it. */
    private byte[] encode(EncoderSpec spec, byte[] input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DeflateEncoder encoder = family().encoder(spec, out);
        int offset = 0;
        for (int piece = 1; offset < input.length; piece *= 7) {
            int length = Math.min(input.length - offset, 1000 * piece + 13);
            encoder.write(input, offset, length);
            offset += length;
        }
        encoder.finish();
        return out.toByteArray();
    }
}
