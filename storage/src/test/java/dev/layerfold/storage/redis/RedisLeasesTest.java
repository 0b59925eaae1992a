package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.LeaseUnavailableException;
import dev.layerfold.storage.testserver.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two holders are two lease managers on their own connections, as two registry processes would be. */
class RedisLeasesTest {

    /** For leases a test lets expire: short, so the test is quick. */
    private static final Duration TIME_TO_LIVE = Duration.ofMillis(600);
    /**
     * For leases a test needs held throughout: renewed every second, so a heartbeat may be two seconds
     * late on a loaded machine before the lease is lost.
     */
    private static final Duration HELD = Duration.ofSeconds(3);

    private final String namespace = RedisServer.newNamespace();
    private final List<AutoCloseable> opened = new ArrayList<>();

    private RedisLeases process() {
        RedisConnection connection = RedisConnection.open(RedisServer.shared().url(), false);
        RedisLeases leases = new RedisLeases(connection.commands(), namespace);
        opened.add(connection);
        opened.add(leases);
        return leases;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void onlyOneHolderAtATimeAndTheNextOneGetsItOnRelease() throws Exception {
        RedisLeases first = process();
        RedisLeases second = process();

        Lease held = first.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow();
        assertThat(second.tryAcquire("sweep", TIME_TO_LIVE)).isEmpty();
        assertThat(second.tryAcquire("other work", TIME_TO_LIVE)).isPresent();

        held.close();

        assertThat(held.isHeld()).isFalse();
        try (Lease next = second.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow()) {
            assertThat(next.isHeld()).isTrue();
        }
    }

    @Test
    void heartbeatKeepsALeaseWellPastItsTimeToLive() throws Exception {
        RedisLeases first = process();
        RedisLeases second = process();

        try (Lease held = first.tryAcquire("sweep", HELD).orElseThrow()) {
            Thread.sleep(HELD.multipliedBy(2)); // the time passing is what is tested, not a race

            assertThat(held.isHeld()).isTrue();
            assertThat(second.tryAcquire("sweep", TIME_TO_LIVE)).isEmpty();
        }
    }

    @Test
    void leaseOfAHolderThatDiedExpiresAndAWaitingHolderTakesIt() throws Exception {
        RedisLeases dying = process();
        RedisLeases waiting = process();
        Lease orphaned = dying.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow();

        dying.close(); // heartbeats stop and nothing is released, as when the process is killed

        try (Lease taken = waiting.acquire("sweep", TIME_TO_LIVE, Duration.ofSeconds(10))) {
            assertThat(taken.isHeld()).isTrue();
            assertThat(orphaned.isHeld()).isFalse();
            orphaned.close(); // a late release by the old holder must not free the new holder's lease
            assertThat(process().tryAcquire("sweep", TIME_TO_LIVE)).isEmpty();
        }
    }

    @Test
    void waitingForALeaseThatStaysHeldGivesUpWithAClearError() throws Exception {
        RedisLeases first = process();
        RedisLeases second = process();

        try (Lease ignored = first.tryAcquire("sweep", HELD).orElseThrow()) {
            assertThatThrownBy(() -> second.acquire("sweep", HELD, Duration.ofMillis(300)))
                    .isInstanceOf(LeaseUnavailableException.class)
                    .hasMessageContaining("sweep");
        }
    }

    @Test
    void holderWhoseLeaseWasTakenOverSeesItIsNoLongerHeld() throws Exception {
        RedisLeases first = process();
        Lease held = first.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow();
        // An operator (or an expiry during a long pause) removed the lease and someone else took it.
        try (RedisConnection admin = RedisConnection.open(RedisServer.shared().url(), false)) {
            admin.commands().del(namespace + ":lease:sweep");
        }
        Optional<Lease> taken = process().tryAcquire("sweep", HELD);
        assertThat(taken).isPresent();

        // The old holder learns it at its next heartbeat, however late a loaded machine runs it.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (held.isHeld() && System.nanoTime() < deadline) {
            Thread.sleep(10); // polls the condition itself, with no guess of how long it takes
        }
        assertThat(held.isHeld()).isFalse();
    }
}
