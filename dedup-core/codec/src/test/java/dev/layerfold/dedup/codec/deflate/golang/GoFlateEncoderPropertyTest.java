package dev.layerfold.dedup.codec.deflate.golang;

import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertInflatesTo;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.assertSameBytes;
import static dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions.encode;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/** For arbitrary input, level, write split and flush points, the port writes Go's bytes. */
@AddLifecycleHook(GoFlateEncoderPropertyTest.SkipWithoutGo.class)
class GoFlateEncoderPropertyTest {

    @Property(tries = 400)
    void anyInputAtAnyLevelMatchesGo(@ForAll("inputs") byte[] input, @ForAll @IntRange(min = -2, max = 9) int level,
                                     @ForAll long seed) {
        GoFlateOracle go = GoFlateOracle.get();
        Random random = new Random(seed);
        long[] flushes = random.nextInt(3) == 0 ? GoFlateAssertions.randomFlushOffsets(random, input.length)
                : new long[0];
        byte[] ours = encode(level, input, flushes, random);
        assertSameBytes(ours, go.compress(level, input, flushes), level, "property case");
        assertInflatesTo(ours, input);
    }

    @Provide
    Arbitrary<byte[]> inputs() {
        return TestInputs.arbitrary();
    }

    /** Skips, loudly, where Go is missing; under CI ({@code CI=true}) runs, so that it fails. */
    static final class SkipWithoutGo implements SkipExecutionHook {

        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            Optional<String> whyNot = GoFlateOracle.unavailableReason();
            if (whyNot.isPresent() && !ReferenceTools.isCi()) {
                String message = GoFlateOracle.unavailableMessage(whyNot.get());
                ReferenceTools.announce(message);
                return SkipResult.skip(message);
            }
            return SkipResult.doNotSkip();
        }
    }
}
