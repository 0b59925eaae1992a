package dev.layerfold.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcIndexContract;
import dev.layerfold.storage.metadata.ManifestRecord;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GC index contract on SQLite; another process's view is a second store on the same file. */
class SqliteGcIndexTest extends GcIndexContract {

    @TempDir
    Path dir;

    private SqliteStoresOnOneFile stores;

    @BeforeEach
    void file() {
        stores = new SqliteStoresOnOneFile(dir.resolve("metadata.db"));
    }

    @AfterEach
    void close() {
        stores.close();
    }

    @Override
    protected GcIndex newIndex() throws Exception {
        return stores.open().gcIndex();
    }

    @Override
    protected GcIndex sameIndex() throws Exception {
        return stores.open().gcIndex();
    }

    @Test
    void aFileWrittenBeforeTheCollectorExistedIsIncompleteWhenItHasManifests() throws Exception {
        Path file = dir.resolve("older.db");
        try (SqliteMetadataStore older = new SqliteMetadataStore(file)) {
            older.linkManifest(RepositoryName.of("app"), new ManifestRecord(digest("m"), "application/vnd.oci.image.manifest.v1+json", 2));
        }
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("DROP TABLE gc_complete");
            statement.executeUpdate("PRAGMA user_version = 2");
        }

        try (SqliteMetadataStore migrated = new SqliteMetadataStore(file)) {
            assertThat(migrated.gcIndex().completeSince()).isEmpty();
        }
    }

    @Test
    void aNewFileIsCompleteSinceEver() throws Exception {
        assertThat(newIndex().completeSince()).contains(0L);
    }
}
