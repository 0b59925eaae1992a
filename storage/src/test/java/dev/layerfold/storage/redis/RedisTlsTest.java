package dev.layerfold.storage.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.testserver.RedisServer;
import io.lettuce.core.RedisConnectionException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rediss://} URLs against a Redis that accepts only TLS: the stores work over it, and a server
 * certificate the JVM does not trust is refused unless the URL waives the check.
 */
class RedisTlsTest {

    private static final Duration TIME_TO_LIVE = Duration.ofSeconds(10);

    private static RedisServer.TlsOnly server;

    @BeforeAll
    static void startRedisWithTlsOnly() {
        server = RedisServer.startTlsOnly();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    @Test
    void leasesWorkOverTls() throws Exception {
        try (RedisConnection connection = RedisConnection.open(server.url() + "?verifyPeer=NONE", false);
             RedisLeases leases = new RedisLeases(connection.commands(), RedisServer.newNamespace())) {
            try (Lease held = leases.tryAcquire("sweep", TIME_TO_LIVE).orElseThrow()) {
                assertThat(held.isHeld()).isTrue();
                assertThat(leases.tryAcquire("sweep", TIME_TO_LIVE)).isEmpty();
            }
            assertThat(leases.tryAcquire("sweep", TIME_TO_LIVE)).isPresent();
        }
    }

    @Test
    void serverWhoseCertificateTheJvmDoesNotTrustIsRefused() {
        assertThatThrownBy(() -> RedisConnection.open(server.url(), false))
                .isInstanceOf(RedisConnectionException.class)
                .hasStackTraceContaining("PKIX path building failed");
    }
}
