package dev.layerfold.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.UploadNotFoundException;
import dev.layerfold.storage.lease.Lease;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisMetadataStore;
import dev.layerfold.storage.sweep.AbandonedUploadSweeper;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sweeper over the production pair: S3 blobs and Redis metadata, both on real servers. */
class S3AbandonedUploadSweepTest {

    private static final Duration MAX_IDLE = Duration.ofHours(24);

    private S3Bucket bucket;
    private RedisMetadataStore metadata;
    private S3BlobStore blobs;

    @BeforeEach
    void open() throws Exception {
        S3Server server = S3Server.shared();
        bucket = S3Bucket.connect(new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                server.accessKey(), server.secretKey(), false, S3Settings.MINIMUM_PART_SIZE));
        metadata = new RedisMetadataStore(RedisConnection.open(RedisServer.shared().url(), false), bucket,
                RedisServer.newNamespace());
        blobs = new S3BlobStore(bucket, S3Settings.MINIMUM_PART_SIZE, false);
    }

    @AfterEach
    void close() {
        metadata.close();
        bucket.close();
    }

    /** A sweeper whose clock is {@code ahead} in the future, so uploads made now look that old. */
    private AbandonedUploadSweeper sweeperAhead(Duration ahead) {
        return new AbandonedUploadSweeper(blobs, metadata, metadata.leases(), MAX_IDLE, Clock.offset(Clock.systemUTC(), ahead));
    }

    private String startUpload() throws Exception {
        String upload = UUID.randomUUID().toString();
        Instant now = Instant.now();
        metadata.createUpload(new UploadState(upload, RepositoryName.of("library/alpine"), 0, new byte[0], now, now));
        blobs.startUpload(upload);
        blobs.append(upload, new ByteArrayInputStream("abandoned".getBytes(UTF_8)));
        return upload;
    }

    @Test
    void uploadIdleLongerThanTheLimitIsRemovedWithItsState() throws Exception {
        String upload = startUpload();

        try (AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.plusHours(1))) {
            assertThat(sweeper.sweep()).hasValueSatisfying(removed -> assertThat(removed).containsExactly(upload));
        }

        assertThatThrownBy(() -> blobs.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
        assertThat(metadata.upload(upload)).isEmpty();
    }

    @Test
    void uploadBytesWhoseStateWasLostAreRemovedToo() throws Exception {
        String upload = startUpload();
        metadata.deleteUpload(upload);

        try (AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.plusHours(1))) {
            assertThat(sweeper.sweep()).hasValueSatisfying(removed -> assertThat(removed).containsExactly(upload));
        }

        assertThatThrownBy(() -> blobs.uploadSize(upload)).isInstanceOf(UploadNotFoundException.class);
    }

    @Test
    void recentUploadIsKept() throws Exception {
        String upload = startUpload();

        try (AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.minusHours(1))) {
            assertThat(sweeper.sweep()).hasValueSatisfying(removed -> assertThat(removed).isEmpty());
        }

        assertThat(blobs.uploadSize(upload)).isEqualTo(9);
        assertThat(metadata.upload(upload)).isPresent();
    }

    @Test
    void sweeperStandsBackWhileAnotherProcessSweeps() throws Exception {
        String upload = startUpload();

        try (Lease otherProcess = metadata.leases().tryAcquire(AbandonedUploadSweeper.LEASE, Duration.ofSeconds(5)).orElseThrow();
             AbandonedUploadSweeper sweeper = sweeperAhead(MAX_IDLE.plusHours(1))) {
            assertThat(sweeper.sweep()).isEmpty();
        }

        assertThat(blobs.uploadSize(upload)).isEqualTo(9);
    }
}
