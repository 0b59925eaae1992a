package dev.layerfold.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.layerfold.storage.crash.KillNine;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.metadata.MetadataStoreContract;
import dev.layerfold.storage.metadata.UploadState;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SqliteMetadataStoreTest extends MetadataStoreContract {

    @TempDir
    Path dir;

    @Override
    protected MetadataStore newStore() throws Exception {
        return new SqliteMetadataStore(dir.resolve("metadata.db"));
    }

    @Override
    protected MetadataStore reopen() throws Exception {
        return new SqliteMetadataStore(dir.resolve("metadata.db"));
    }

    @Test
    void aVersionOneFileIsMigratedAndItsUploadsStillRead() throws Exception {
        Path db = dir.resolve("version-1.db");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("""
                    CREATE TABLE uploads (id TEXT PRIMARY KEY, repository TEXT NOT NULL, size INTEGER NOT NULL,
                      hash_state BLOB NOT NULL, started_at_millis INTEGER NOT NULL, updated_at_millis INTEGER NOT NULL)""");
            statement.executeUpdate("INSERT INTO uploads VALUES ('old', 'library/alpine', 7, x'0102', 1000, 2000)");
            statement.executeUpdate("PRAGMA user_version = 1");
        }

        try (MetadataStore store = new SqliteMetadataStore(db)) {
            UploadState old = store.upload("old").orElseThrow();
            assertThat(old.size()).isEqualTo(7);
            assertThat(old.hashState()).containsExactly(1, 2);
            assertThat(old.updatedAt()).isEqualTo(Instant.ofEpochMilli(2000));
            assertThat(store.claimUpload("old", 7, "a", Instant.ofEpochMilli(3000), Instant.ofEpochMilli(0))).isTrue();
            assertThat(store.claimUpload("old", 7, "b", Instant.ofEpochMilli(3000), Instant.ofEpochMilli(0))).isFalse();
        }
    }

    @Test
    void aVersionTwoFileCountsItsPacksAsStoredOnceMigrated() throws Exception {
        Path db = dir.resolve("version-2.db");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("""
                    CREATE TABLE dedup_files (digest TEXT PRIMARY KEY, pack TEXT NOT NULL, offset INTEGER NOT NULL,
                      length INTEGER NOT NULL, size INTEGER NOT NULL, refs INTEGER NOT NULL DEFAULT 0,
                      stored_at_millis INTEGER NOT NULL) WITHOUT ROWID""");
            statement.executeUpdate("""
                    CREATE TABLE dedup_layers (digest TEXT PRIMARY KEY, record TEXT, logical_size INTEGER,
                      stored_bytes INTEGER, file_count INTEGER, intact_reason TEXT) WITHOUT ROWID""");
            statement.executeUpdate("INSERT INTO dedup_files VALUES ('f1', 'p', 0, 30, 90, 1, 0), ('f2', 'p', 30, 12, 40, 1, 0)");
            statement.executeUpdate("INSERT INTO dedup_layers VALUES ('l', 'r', 130, 999, 2, NULL)");
            statement.executeUpdate("PRAGMA user_version = 2");
        }

        try (SqliteMetadataStore store = new SqliteMetadataStore(db)) {
            // Version 2 had counted 999 for the layer: its packs and record, as its own attempt stored them.
            assertThat(store.dedupIndex().totals().storedBytes()).isEqualTo(30 + 12);
            assertThat(store.dedupIndex().totals().logicalBytes()).isEqualTo(130);
        }
    }

    @Test
    void tagsAcknowledgedBeforeAKillDashNineAreThereAfterReopening() throws Exception {
        Path db = dir.resolve("killed.db");

        List<String> acknowledged = KillNine.killAfter(50, TagWritingProcess.class, dir, db.toString());

        try (MetadataStore reopened = new SqliteMetadataStore(db)) {
            for (String tag : acknowledged) {
                assertThat(reopened.tag(TagWritingProcess.REPOSITORY, tag)).contains(TagWritingProcess.digestOf(tag));
            }
        }
    }

    @Test
    @Timeout(30)
    void twoStoresOnOneFileSeeEachOthersWritesAndOnlyOneWinsARace() throws Exception {
        try (MetadataStore other = new SqliteMetadataStore(dir.resolve("metadata.db"))) {
            Instant now = Instant.parse("2026-01-01T00:00:00Z");
            for (int round = 0; round < 20; round++) {
                UploadState start = new UploadState("shared-" + round, REPO, 0, new byte[0], now, now);
                store.createUpload(start);
                CyclicBarrier barrier = new CyclicBarrier(2);
                try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
                    Future<Boolean> mine = threads.submit(() -> {
                        barrier.await();
                        return store.advanceUpload(start.advancedBy(1, new byte[0], now), 0, null);
                    });
                    Future<Boolean> theirs = threads.submit(() -> {
                        barrier.await();
                        return other.advanceUpload(start.advancedBy(2, new byte[0], now), 0, null);
                    });
                    assertThat(mine.get() ^ theirs.get()).as("exactly one of the two stores advanced the upload").isTrue();
                }
            }
            other.putTag(REPO, "latest", digest("from the other store"));
            assertThat(store.tag(REPO, "latest")).contains(digest("from the other store"));
        }
    }

    @Test
    void databaseFileIsInWalMode() throws Exception {
        store.putTag(REPO, "latest", digest("manifest"));

        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("metadata.db"));
             Statement statement = connection.createStatement();
             ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
            // WAL is a property of the file; synchronous=FULL is per connection and cannot be read from outside.
            assertThat(mode.next()).isTrue();
            assertThat(mode.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @Test
    void refusesADatabaseWrittenByANewerRelease() throws Exception {
        store.close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("metadata.db"));
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("PRAGMA user_version = " + (SqliteSchema.VERSION + 1));
        }

        assertThatThrownBy(this::reopen).isInstanceOf(IOException.class)
                .hasMessageContaining("written by a newer Layerfold");
    }

    @Test
    void closedStoreFailsClearly() {
        store.close();

        assertThatThrownBy(() -> store.tag(REPO, "latest")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
        assertThatThrownBy(() -> store.putTag(REPO, "latest", digest("manifest")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
    }

    @Test
    void negativePageLimitIsRejected() {
        assertThatThrownBy(() -> store.tags(REPO, Optional.empty(), -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be negative");
    }
}
