package dev.layerfold.dedup.codec.deflate.zlib;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;

import java.io.IOException;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/** For arbitrary input, level and write split, the port writes what GNU gzip writes. */
class GnuGzipEncoderPropertyTest {

    @Property(tries = 200)
    void anyInputMatchesGzip(@ForAll("inputs") byte[] input, @ForAll @IntRange(min = 1, max = 9) int level,
                             @ForAll long seed) throws IOException {
        assertSameBytes(GnuGzipEncoderTest.encode(level, input, new Random(seed)), GnuGzip.deflate(level, input), level, "property case");
    }

    @Provide
    Arbitrary<byte[]> inputs() {
        Arbitrary<byte[]> uniform = Arbitraries.bytes().array(byte[].class).ofMaxSize(70_000);
        Arbitrary<byte[]> smallAlphabet = Arbitraries.bytes().between((byte) 0, (byte) 3).array(byte[].class).ofMaxSize(200_000);
        Arbitrary<byte[]> text = Arbitraries.integers().between(0, 300_000).flatMap(size ->
                Arbitraries.integers().map(seed -> ReferenceInputs.text(seed, size)));
        Arbitrary<byte[]> tiny = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Arbitraries.frequencyOf(Tuple.of(3, uniform), Tuple.of(3, smallAlphabet), Tuple.of(3, text), Tuple.of(2, tiny));
    }

}
