package dev.layerfold.registry.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FailedSignInsTest {

    /** A clock the test moves. */
    private static final class ManualClock implements TimeMeter {
        long nanos;

        @Override
        public long currentTimeNanos() {
            return nanos;
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }
    }

    private final ManualClock clock = new ManualClock();
    private final FailedSignIns failures = new FailedSignIns(new FailedSignIns.Limits(3, 5, Duration.ofMinutes(1)), clock);

    @Test
    void aUserIsHeldBackAfterItsFailuresUntilTheBucketRefills() {
        for (int i = 0; i < 3; i++) {
            assertThat(failures.waitBeforeTrying("alice", "10.0.0.1")).isEmpty();
            failures.failed("alice", "10.0.0." + i);
        }

        assertThat(failures.waitBeforeTrying("alice", "10.0.0.9")).hasValueSatisfying(wait ->
                assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20)));
        assertThat(failures.waitBeforeTrying("bob", "10.0.0.9")).as("another user").isEmpty();

        clock.nanos += Duration.ofSeconds(20).toNanos();
        assertThat(failures.waitBeforeTrying("alice", "10.0.0.9")).isEmpty();
    }

    @Test
    void anAddressIsHeldBackAfterItsFailuresWhateverUserItTries() {
        for (int i = 0; i < 5; i++) {
            failures.failed("user" + i, "192.0.2.7");
        }

        assertThat(failures.waitBeforeTrying("someone-else", "192.0.2.7")).isPresent();
        assertThat(failures.waitBeforeTrying("someone-else", "192.0.2.8")).isEmpty();
    }

    @Test
    void aClientThatSignedInFromItsAddressIsNotSlowedByGuessesFromElsewhere() {
        failures.succeeded("alice", "10.1.1.1");
        for (int i = 0; i < 10; i++) {
            failures.failed("alice", "198.51.100." + i);
        }

        assertThat(failures.waitBeforeTrying("alice", "10.1.1.1")).isEmpty();
        assertThat(failures.waitBeforeTrying("alice", "10.1.1.2")).as("a new address of hers").isPresent();
    }
}
