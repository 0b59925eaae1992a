package dev.layerfold.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.RepositoryUsageContract;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The accounting contract on SQLite; another process's view is a second store on the same file. */
class SqliteRepositoryUsageTest extends RepositoryUsageContract {

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
    protected RepositoryUsage newUsage() throws Exception {
        return stores.open().repositoryUsage();
    }

    @Override
    protected RepositoryUsage sameUsage() throws Exception {
        return stores.open().repositoryUsage();
    }

    @Test
    void aFileWrittenBeforeTheAccountingExistedIsIncompleteWhenItHasManifests() throws Exception {
        Path file = dir.resolve("older.db");
        try (SqliteMetadataStore older = new SqliteMetadataStore(file)) {
            older.linkManifest(RepositoryName.of("app"), new ManifestRecord(digest("m"), "application/vnd.oci.image.manifest.v1+json", 2));
        }
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("DROP TABLE usage_complete");
            statement.executeUpdate("PRAGMA user_version = 3");
        }

        try (SqliteMetadataStore migrated = new SqliteMetadataStore(file)) {
            assertThat(migrated.repositoryUsage().complete()).isFalse();
        }
    }
}
