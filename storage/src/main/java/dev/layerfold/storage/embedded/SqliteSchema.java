package dev.layerfold.storage.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tables of the embedded metadata store. The version in {@code PRAGMA user_version} lets a later
 * release migrate the file, and stops this one from misreading a file a later release wrote.
 */
final class SqliteSchema {

    /**
     * 2 added the claims on uploads and the dedup tables; 3 the garbage collector's and the
     * predictor's, pulls per layer, and stored bytes counted per pack rather than per layer (a pack
     * stored by a worker that died before its commit still takes space); 4 the per-repository
     * accounting. Older files are migrated when opened. The notification outbox's tables are new
     * tables only, created in a file of any version when it is opened, so they need no version of their
     * own (a release that predates them leaves them alone).
     */
    static final int VERSION = 4;

    private static final String DDL = """
            CREATE TABLE IF NOT EXISTS repositories (
              name TEXT PRIMARY KEY
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS blob_links (
              repository TEXT NOT NULL,
              digest TEXT NOT NULL,
              PRIMARY KEY (repository, digest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS manifests (
              repository TEXT NOT NULL,
              digest TEXT NOT NULL,
              media_type TEXT NOT NULL,
              size INTEGER NOT NULL,
              PRIMARY KEY (repository, digest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS tags (
              repository TEXT NOT NULL,
              tag TEXT NOT NULL,
              digest TEXT NOT NULL,
              PRIMARY KEY (repository, tag)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS tags_by_digest ON tags (repository, digest);
            CREATE TABLE IF NOT EXISTS referrers (
              repository TEXT NOT NULL,
              subject TEXT NOT NULL,
              referrer TEXT NOT NULL,
              media_type TEXT NOT NULL,
              size INTEGER NOT NULL,
              artifact_type TEXT,
              PRIMARY KEY (repository, subject, referrer)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS referrers_by_referrer ON referrers (repository, referrer);
            CREATE TABLE IF NOT EXISTS referrer_annotations (
              repository TEXT NOT NULL,
              subject TEXT NOT NULL,
              referrer TEXT NOT NULL,
              name TEXT NOT NULL,
              value TEXT NOT NULL,
              PRIMARY KEY (repository, subject, referrer, name),
              FOREIGN KEY (repository, subject, referrer)
                REFERENCES referrers (repository, subject, referrer) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS uploads (
              id TEXT PRIMARY KEY,
              repository TEXT NOT NULL,
              size INTEGER NOT NULL,
              hash_state BLOB NOT NULL,
              started_at_millis INTEGER NOT NULL,
              updated_at_millis INTEGER NOT NULL,
              claim TEXT,
              claim_renewed_millis INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS uploads_by_update ON uploads (updated_at_millis);
            CREATE TABLE IF NOT EXISTS dedup_queue (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              layer TEXT NOT NULL UNIQUE,
              media_type TEXT NOT NULL,
              size INTEGER NOT NULL,
              worker TEXT,
              lease_until_millis INTEGER NOT NULL DEFAULT 0,
              deliveries INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS dedup_queue_by_lease ON dedup_queue (lease_until_millis, id);
            CREATE TABLE IF NOT EXISTS dedup_files (
              digest TEXT PRIMARY KEY,
              pack TEXT NOT NULL,
              offset INTEGER NOT NULL,
              length INTEGER NOT NULL,
              size INTEGER NOT NULL,
              refs INTEGER NOT NULL DEFAULT 0,
              stored_at_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS dedup_files_unreferenced ON dedup_files (stored_at_millis) WHERE refs = 0;
            CREATE TABLE IF NOT EXISTS dedup_claims (
              digest TEXT PRIMARY KEY,
              worker TEXT NOT NULL,
              until_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS dedup_layers (
              digest TEXT PRIMARY KEY,
              record TEXT,
              logical_size INTEGER,
              record_size INTEGER,
              file_count INTEGER,
              intact_reason TEXT
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS dedup_packs (
              digest TEXT PRIMARY KEY,
              size INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS dedup_pack_use (
              digest TEXT PRIMARY KEY,
              dead INTEGER NOT NULL DEFAULT 0,
              generation INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS dedup_pack_marks (
              digest TEXT PRIMARY KEY,
              retired_at_millis INTEGER,
              condemned_at_millis INTEGER
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS layer_pulls (
              digest TEXT PRIMARY KEY,
              pulls REAL NOT NULL,
              at_millis INTEGER NOT NULL,
              last_pull_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS gc_references (
              target TEXT NOT NULL,
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              PRIMARY KEY (target, repository, manifest)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS gc_references_by_holder ON gc_references (repository, manifest);
            CREATE TABLE IF NOT EXISTS gc_holders (
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              since_millis INTEGER NOT NULL,
              PRIMARY KEY (repository, manifest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS gc_releases (
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              at_millis INTEGER NOT NULL,
              PRIMARY KEY (repository, manifest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS gc_candidates (
              digest TEXT PRIMARY KEY,
              since_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS gc_candidates_by_age ON gc_candidates (since_millis);
            CREATE TABLE IF NOT EXISTS gc_links (
              digest TEXT NOT NULL,
              repository TEXT NOT NULL,
              PRIMARY KEY (digest, repository)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS gc_condemned (
              digest TEXT PRIMARY KEY,
              at_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS gc_sweep (
              one INTEGER PRIMARY KEY CHECK (one = 1),
              after TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS gc_complete (
              one INTEGER PRIMARY KEY CHECK (one = 1),
              since_millis INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS predictor_images (
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              contents TEXT NOT NULL,
              PRIMARY KEY (repository, manifest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS predictor_pulls (
              user TEXT NOT NULL,
              layer TEXT NOT NULL,
              count INTEGER NOT NULL,
              last_millis INTEGER NOT NULL,
              PRIMARY KEY (user, layer)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS predictor_pulls_by_time ON predictor_pulls (user, last_millis);
            CREATE INDEX IF NOT EXISTS predictor_pulls_by_age ON predictor_pulls (last_millis);
            CREATE TABLE IF NOT EXISTS predictor_users (
              user TEXT PRIMARY KEY,
              offered INTEGER NOT NULL DEFAULT 0,
              repulled INTEGER NOT NULL DEFAULT 0,
              last_repository TEXT,
              last_manifest TEXT,
              platform TEXT NOT NULL DEFAULT '',
              seen_millis INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS predictor_image_repulls (
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              offered INTEGER NOT NULL DEFAULT 0,
              repulled INTEGER NOT NULL DEFAULT 0,
              seen_millis INTEGER NOT NULL,
              PRIMARY KEY (repository, manifest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS usage_repositories (
              repository TEXT PRIMARY KEY,
              logical INTEGER NOT NULL DEFAULT 0,
              exclusive INTEGER NOT NULL DEFAULT 0,
              stored INTEGER NOT NULL DEFAULT 0,
              freed INTEGER NOT NULL DEFAULT 0,
              pushes INTEGER NOT NULL DEFAULT 0,
              pulls INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS usage_by_stored ON usage_repositories (stored DESC);
            CREATE TABLE IF NOT EXISTS usage_blobs (
              digest TEXT PRIMARY KEY,
              size INTEGER,
              stored INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS usage_holdings (
              digest TEXT NOT NULL,
              repository TEXT NOT NULL,
              manifests INTEGER NOT NULL,
              PRIMARY KEY (digest, repository)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS usage_manifests (
              repository TEXT NOT NULL,
              manifest TEXT NOT NULL,
              blobs TEXT NOT NULL,
              PRIMARY KEY (repository, manifest)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS usage_complete (
              one INTEGER PRIMARY KEY CHECK (one = 1)
            );
            CREATE TABLE IF NOT EXISTS notification_outbox (
              endpoint TEXT NOT NULL,
              sequence INTEGER NOT NULL,
              event TEXT NOT NULL,
              PRIMARY KEY (endpoint, sequence)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS notification_endpoints (
              endpoint TEXT PRIMARY KEY,
              next_sequence INTEGER NOT NULL DEFAULT 1,
              depth INTEGER NOT NULL DEFAULT 0,
              holder TEXT,
              lease_until_millis INTEGER NOT NULL DEFAULT 0,
              not_before_millis INTEGER NOT NULL DEFAULT 0,
              attempts INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            """;

    private SqliteSchema() {
    }

    /** Creates the tables in a new file, or checks that an existing file has a schema this code knows. */
    static void createOrCheck(Connection connection, Path file) throws SQLException, IOException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("BEGIN IMMEDIATE");
            try {
                int found = version(statement);
                if (found > VERSION) {
                    throw new IOException("metadata database " + file + " has schema version " + found
                            + ", written by a newer Layerfold; this one reads version " + VERSION
                            + ". Run the newer release, or point layerfold.storage.path at another directory.");
                }
                for (String ddl : DDL.split(";")) {
                    if (!ddl.isBlank()) {
                        statement.executeUpdate(ddl);
                    }
                }
                if (found == 1) {
                    statement.executeUpdate("ALTER TABLE uploads ADD COLUMN claim TEXT");
                    statement.executeUpdate("ALTER TABLE uploads ADD COLUMN claim_renewed_millis INTEGER NOT NULL DEFAULT 0");
                }
                if (found == 2) {
                    migrateStoredBytesToPacks(statement);
                }
                if (found < 3) {
                    // A file with no manifest has no references to miss; one with manifests gets them
                    // from the collector's rebuild before it condemns anything.
                    statement.executeUpdate("INSERT OR IGNORE INTO gc_complete (one, since_millis) "
                            + "SELECT 1, 0 WHERE NOT EXISTS (SELECT 1 FROM manifests)");
                }
                if (found < 4) {
                    // A file with manifests gets its figures from the accounting's rebuild.
                    statement.executeUpdate("INSERT OR IGNORE INTO usage_complete (one) "
                            + "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM manifests)");
                }
                statement.executeUpdate("PRAGMA user_version = " + VERSION);
                statement.executeUpdate("COMMIT");
            } catch (SQLException | IOException | RuntimeException e) {
                statement.executeUpdate("ROLLBACK");
                throw e;
            }
        }
    }

    /**
     * Version 2 counted each layer's new packs and record in its row. Packs now have their own rows,
     * sized by their last recorded file (a pack is its files' frames end to end); the layer rows
     * keep no size for their records, which version 2 did not keep apart, so those are not counted.
     */
    private static void migrateStoredBytesToPacks(Statement statement) throws SQLException {
        if (!hasColumn(statement, "dedup_layers", "stored_bytes")) {
            return; // a file that says version 2 but was made by this version's tables
        }
        statement.executeUpdate("ALTER TABLE dedup_layers RENAME COLUMN stored_bytes TO record_size");
        statement.executeUpdate("UPDATE dedup_layers SET record_size = 0 WHERE record IS NOT NULL");
        statement.executeUpdate("""
                INSERT OR IGNORE INTO dedup_packs (digest, size)
                SELECT pack, max(offset + length) FROM dedup_files GROUP BY pack""");
    }

    private static boolean hasColumn(Statement statement, String table, String column) throws SQLException {
        try (ResultSet columns = statement.executeQuery("PRAGMA table_info(" + table + ")")) {
            while (columns.next()) {
                if (columns.getString("name").equals(column)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static int version(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery("PRAGMA user_version")) {
            return row.next() ? row.getInt(1) : 0;
        }
    }
}
