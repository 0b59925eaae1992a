package dev.layerfold.storage.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SQLite file behind the embedded metadata store: one connection, used by one thread at a time.
 *
 * <p>WAL with {@code synchronous=FULL} syncs the log on every commit, so an acknowledged write
 * survives kill -9 and power loss. Metadata operations are tiny, so serialising them on one
 * connection costs less than the fsync each commit pays anyway. A {@link ReentrantLock} rather than
 * {@code synchronized} keeps virtual threads unpinned while they wait.
 */
final class SqliteDatabase implements AutoCloseable {

    /** How long a writer waits for another process holding the write lock before failing. */
    private static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private static final String SCHEMA = """
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
              updated_at_millis INTEGER NOT NULL
            );
            CREATE INDEX IF NOT EXISTS uploads_by_update ON uploads (updated_at_millis);
            """;

    /** Work done on the connection while the caller holds it exclusively. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final Path file;
    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;

    private SqliteDatabase(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    static SqliteDatabase open(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
                statement.execute("PRAGMA journal_mode = WAL");
                statement.execute("PRAGMA synchronous = FULL");
                statement.execute("PRAGMA foreign_keys = ON");
                statement.executeUpdate("BEGIN IMMEDIATE");
                for (String ddl : SCHEMA.split(";")) {
                    if (!ddl.isBlank()) {
                        statement.executeUpdate(ddl);
                    }
                }
                statement.executeUpdate("COMMIT");
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            return new SqliteDatabase(file, connection);
        } catch (SQLException e) {
            throw new IOException("cannot open metadata database " + file + ": " + e.getMessage(), e);
        }
    }

    /** Runs one statement's worth of work; SQLite makes each statement atomic on its own. */
    <T> T call(Work<T> work) throws IOException {
        lock.lock();
        try {
            requireOpen();
            return work.run(connection);
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs several statements as one transaction. {@code BEGIN IMMEDIATE} takes the write lock up front,
     * so another process cannot force a deadlock-induced rollback halfway.
     */
    <T> T transaction(Work<T> work) throws IOException {
        lock.lock();
        try {
            requireOpen();
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("BEGIN IMMEDIATE");
                try {
                    T result = work.run(connection);
                    statement.executeUpdate("COMMIT");
                    return result;
                } catch (SQLException | RuntimeException | Error e) {
                    try {
                        statement.executeUpdate("ROLLBACK");
                    } catch (SQLException rollbackFailure) {
                        e.addSuppressed(rollbackFailure);
                    }
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                connection.close();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("closing metadata database " + file + " failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("metadata database " + file + " is closed");
        }
    }

    private IOException failure(SQLException e) {
        return new IOException("metadata database " + file + ": " + e.getMessage(), e);
    }
}
