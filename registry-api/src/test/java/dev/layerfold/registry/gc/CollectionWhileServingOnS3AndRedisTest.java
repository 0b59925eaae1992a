package dev.layerfold.registry.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.gc.GarbageCollector;
import dev.layerfold.gc.GcSettings;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.redis.RedisMetadataStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** The collector's races on S3 and Redis, as several registry processes share them. */
@TestPropertySource(properties = "layerfold.test.backend=s3-redis")
class CollectionWhileServingOnS3AndRedisTest extends CollectionWhileServingTest {

    @Test
    void processesCollectOneAtATimeThroughTheLease() throws Exception {
        Leases leases = ((RedisMetadataStore) metadata).leases();
        GarbageCollector collector = new GarbageCollector(blobs, metadata, index, Optional.empty(), targets,
                Optional.of(leases), GcSettings.DEFAULTS, Clock.systemUTC(), GarbageCollector.Observer.NONE);

        try (Lease anotherProcess = leases.acquire(GarbageCollector.LEASE, Duration.ofSeconds(30), Duration.ofSeconds(10))) {
            assertThat(collector.collect()).isEmpty();
        }

        assertThat(collector.collect()).isPresent();
    }
}
