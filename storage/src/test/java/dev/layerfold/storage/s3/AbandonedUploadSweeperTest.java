package dev.layerfold.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.blob.UploadNotFoundException;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisLeases;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AbandonedUploadSweeperTest {

    private static final Duration MAX_IDLE = Duration.ofHours(24);

    private S3Bucket bucket;
    private RedisConnection redis;
    private RedisLeases leases;
    private S3BlobStore store;

    @BeforeEach
    void open() {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.MINIMUM_PART_SIZE));
        redis = RedisConnection.open(RedisServer.shared().url(), false);
        leases = new RedisLeases(redis.commands(), RedisServer.newNamespace());
        store = new S3BlobStore(bucket, S3Settings.MINIMUM_PART_SIZE, false);
    }

    @AfterEach
    void close() {
        leases.close();
        redis.close();
        bucket.close();
    }

    /** A sweeper whose clock is {@code ahead} in the future, so uploads made now look that old. */
    private AbandonedUploadSweeper sweeperAhead(Duration ahead) {
        return new AbandonedUploadSweeper(store, leases, MAX_IDLE, Clock.offset(Clock.systemUTC(), ahead));
    }

    @Test
    void uploadIdleLongerThanTheLimitIsAborted() throws Exception {
        String upload = UUID.randomUUID().toString();
        store.startUpload(upload);
        store.append(upload, new ByteArrayInputStream("abandoned".getBytes(UTF_8)));

        try (AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.plusHours(1))) {
            assertThat(sweeper.sweep()).hasValueSatisfying(aborted -> assertThat(aborted).containsExactly(upload));
        }

        assertThatThrownBy(() -> store.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    void recentUploadIsKept() throws Exception {
        String upload = UUID.randomUUID().toString();
        store.startUpload(upload);

        try (AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.minusHours(1))) {
            assertThat(sweeper.sweep()).hasValueSatisfying(aborted -> assertThat(aborted).isEmpty());
        }

        assertThat(store.uploadSize(upload)).isZero();
    }

    @Test
    void sweeperStandsBackWhileAnotherProcessSweeps() throws Exception {
        String upload = UUID.randomUUID().toString();
        store.startUpload(upload);

        try (Lease otherProcess = leases.tryAcquire(AbandonedUploadSweeper.LEASE, Duration.ofSeconds(5)).orElseThrow();
             AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.plusHours(1))) {
            assertThat(sweeper.sweep()).isEmpty();
        }

        assertThat(store.uploadSize(upload)).isZero();
    }
}
