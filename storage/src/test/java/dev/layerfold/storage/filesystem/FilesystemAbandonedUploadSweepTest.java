package dev.layerfold.storage.filesystem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.UploadNotFoundException;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.sweep.AbandonedUploadSweeper;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweeper over the embedded pair: a local directory swept without leases. */
class FilesystemAbandonedUploadSweepTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Duration MAX_IDLE = Duration.ofHours(24);
    private static final RepositoryName REPO = RepositoryName.of("sweep/test");

    @TempDir
    Path root;

    private FilesystemBlobStore blobs;
    private SqliteMetadataStore metadata;
    private AbandonedUploadSweeper sweeper;

    @BeforeEach
    void open() throws Exception {
        blobs = new FilesystemBlobStore(root);
        metadata = new SqliteMetadataStore(root.resolve("metadata.db"));
        sweeper = new AbandonedUploadSweeper(blobs, metadata, MAX_IDLE, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void close() {
        sweeper.close();
        metadata.close();
    }

    @Test
    void removesIdleUploadsWithTheirStateAndOrphanedBytesButKeepsActiveOnes() throws Exception {
        Instant longAgo = NOW.minus(MAX_IDLE).minusSeconds(60);
        startUpload("abandoned", longAgo);
        blobs.startUpload("orphan"); // crashed before its state was recorded
        touch("orphan", longAgo);
        startUpload("active", NOW.minusSeconds(60));

        assertThat(sweeper.sweep()).hasValueSatisfying(removed -> assertThat(removed).containsExactlyInAnyOrder("abandoned", "orphan"));

        assertThat(metadata.upload("abandoned")).isEmpty();
        assertThatThrownBy(() -> blobs.uploadSize("abandoned")).isInstanceOf(UploadNotFoundException.class);
        assertThatThrownBy(() -> blobs.uploadSize("orphan")).isInstanceOf(UploadNotFoundException.class);
        assertThat(metadata.upload("active")).isPresent();
        assertThat(blobs.uploadSize("active")).isEqualTo(3);
        assertThat(sweeper.sweep()).hasValueSatisfying(removed -> assertThat(removed).isEmpty());
    }

    @Test
    void refusesANonPositiveIdleTime() {
        assertThatThrownBy(() -> new AbandonedUploadSweeper(blobs, metadata, Duration.ZERO, Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
    }

    private void startUpload(String id, Instant lastTouched) throws Exception {
        blobs.startUpload(id);
        blobs.append(id, new ByteArrayInputStream(new byte[3]));
        touch(id, lastTouched);
        metadata.createUpload(new UploadState(id, REPO, 3, new byte[0], lastTouched, lastTouched));
    }

    private void touch(String id, Instant at) throws Exception {
        Files.setLastModifiedTime(root.resolve("uploads").resolve(id), FileTime.from(at));
    }
}
