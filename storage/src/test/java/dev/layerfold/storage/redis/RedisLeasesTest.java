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

    private static final Duration TIME_TO_LIVE = Duration.ofMillis(600);

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

        try (Lease held = first.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow()) {
            Thread.sleep(TIME_TO_LIVE.multipliedBy(3));

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

        try (Lease ignored = first.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow()) {
            assertThatThrownBy(() -> second.acquire("sweep", TIME_TO_LIVE, Duration.ofMillis(300)))
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
        Optional<Lease> taken = process().tryAcquire("sweep", TIME_TO_LIVE);

        Thread.sleep(TIME_TO_LIVE);

        assertThat(taken).isPresent();
        assertThat(held.isHeld()).isFalse();
    }
}
