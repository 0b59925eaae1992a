package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.golang.GoFlateAssertions;
import dev.layerfold.dedup.codec.deflate.golang.GoFlateOracle;
import java.util.Optional;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * The Go 1.27 release the port is proven against, fetched by {@code go} through the module proxy.
 * Go 1.27.0 to 1.27.4 share this encoder (1.27.3 only changed how a preset dictionary is
 * loaded, which {@code compress/gzip} never uses); 1.27.3 is the one the tests run.
 */
final class Go127Oracle {

    static final String TOOLCHAIN = "go1.27.3";
    static final GoFlateAssertions.Port PORT = KlauspostFlateEncoder::go127;

    private Go127Oracle() {
    }

    static GoFlateOracle get() {
        return GoFlateOracle.release(TOOLCHAIN);
    }

    /** Skips, loudly, where Go 1.27 cannot be fetched; under CI ({@code CI=true}) runs, so that it fails. */
    static final class SkipWithoutGo implements SkipExecutionHook {

        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            Optional<String> whyNot = GoFlateOracle.unavailableReason(TOOLCHAIN);
            if (whyNot.isPresent() && !"true".equalsIgnoreCase(System.getenv("CI"))) {
                String message = "GO 1.27 ORACLE UNAVAILABLE, Go 1.27 DEFLATE NOT VERIFIED: " + whyNot.get();
                System.err.println(message);
                return SkipResult.skip(message);
            }
            return SkipResult.doNotSkip();
        }
    }
}
