package dev.layerfold.dedup.codec.deflate.klauspost;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.encode;

import dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions;
import dev.layerfold.dedup.codec.deflate.golang.TestInputs;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/** For arbitrary input, level, write split and flush points, the port writes Go 1.27's bytes. */
@AddLifecycleHook(Go127Oracle.SkipWithoutGo.class)
class Go127FlateEncoderPropertyTest {

    @Property(tries = 400)
    void anyInputAtAnyLevelMatchesGo(@ForAll("inputs") byte[] input, @ForAll @IntRange(min = -2, max = 9) int level,
                                     @ForAll long seed) {
        Random random = new Random(seed);
        long[] flushes = random.nextInt(3) == 0 ? GoFlateAssertions.randomFlushOffsets(random, input.length)
                : new long[0];
        byte[] ours = encode(Go127Oracle.PORT, level, input, flushes, random);
        assertSameBytes(ours, Go127Oracle.get().compress(level, input, flushes), level, "property case");
        assertInflatesTo(ours, input);
    }

    @Provide
    Arbitrary<byte[]> inputs() {
        return TestInputs.arbitrary();
    }
}
