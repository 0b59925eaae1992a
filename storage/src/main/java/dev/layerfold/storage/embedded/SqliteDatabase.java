package dev.layerfold.storage.embedded;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SQLite file behind the embedded metadata store: one writer connection and a few readers.
 *
 * <p>WAL with {@code synchronous=FULL} syncs the log on every commit, so an acknowledged write
 * survives kill -9 and power loss. SQLite allows one writer at a time anyway, so writes share one
 * connection behind a lock; in WAL mode readers never wait for that writer's fsync, so they get
 * connections of their own. Locks and queues rather than {@code synchronized} keep virtual threads
 * unpinned while they wait.
 *
 * <p>A connection whose transaction did not end with a COMMIT or ROLLBACK that succeeded (an Error such as
 * OutOfMemoryError thrown at the wrong moment, a ROLLBACK that failed) is closed, which rolls back, and
 * replaced by a new one: kept, it would fail every later transaction with "cannot start a transaction
 * within a transaction".
 */
final class SqliteDatabase implements AutoCloseable {

    /** How long a writer waits for another process holding the write lock before failing. */
    private static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private static final int READERS = 4;

    /** Work done on a connection the caller holds exclusively, inside one transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final Path file;
    /** Guarded by {@link #writeLock}. */
    private Connection writer;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final BlockingQueue<Connection> readers;
    private volatile boolean closed;

    private SqliteDatabase(Path file, Connection writer, BlockingQueue<Connection> readers) {
        this.file = file;
        this.writer = writer;
        this.readers = readers;
    }

    static SqliteDatabase open(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        BlockingQueue<Connection> readers = new ArrayBlockingQueue<>(READERS);
        Connection writer = null;
        try {
            writer = connect(absolute);
            try (Statement statement = writer.createStatement()) {
                statement.execute("PRAGMA journal_mode = WAL");
            }
            SqliteSchema.createOrCheck(writer, absolute);
            for (int i = 0; i < READERS; i++) {
                readers.add(connectReader(absolute));
            }
            return new SqliteDatabase(absolute, writer, readers);
        } catch (SQLException e) {
            closeAll(writer, readers, e);
            throw new IOException("cannot open metadata database " + absolute + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            closeAll(writer, readers, e);
            throw e;
        }
    }

    /** Runs read-only work on a consistent snapshot, concurrently with other readers and the writer. */
    <T> T read(Work<T> work) throws IOException {
        Connection reader = borrowReader();
        Transaction transaction = new Transaction(reader);
        try {
            return transaction.run("BEGIN", work);
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            readers.add(transaction.ended ? reader : replace(reader, true));
        }
    }

    /**
     * Runs work as one write transaction. {@code BEGIN IMMEDIATE} takes the write lock up front, so a
     * writer in another process cannot force a rollback halfway.
     */
    <T> T write(Work<T> work) throws IOException {
        writeLock.lock();
        try {
            requireOpen();
            Transaction transaction = new Transaction(writer);
            try {
                return transaction.run("BEGIN IMMEDIATE", work);
            } finally {
                if (!transaction.ended) {
                    writer = replace(writer, false);
                }
            }
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Waits for running reads and writes, then closes every connection; later calls fail. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            IllegalStateException failure = new IllegalStateException("closing metadata database " + file + " failed");
            try {
                for (int i = 0; i < READERS; i++) {
                    closeQuietly(readers.poll(BUSY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), failure);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // readers still busy are left to finish on their own
            }
            // The last connection to close checkpoints the WAL into the main file and removes it.
            closeQuietly(writer, failure);
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        } finally {
            writeLock.unlock();
        }
    }

    private static Connection connectReader(Path file) throws SQLException {
        Connection reader = connect(file);
        try (Statement statement = reader.createStatement()) {
            statement.execute("PRAGMA query_only = ON");
        } catch (SQLException e) {
            reader.close();
            throw e;
        }
        return reader;
    }

    private static Connection connect(Path file) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
            // FULL syncs the WAL on every commit; NORMAL would lose the last commits on power loss.
            statement.execute("PRAGMA synchronous = FULL");
            statement.execute("PRAGMA foreign_keys = ON");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }

    /** One transaction on a connection; {@link #ended} says whether the connection is out of it again. */
    private static final class Transaction {
        private final Connection connection;
        private boolean ended = true;

        Transaction(Connection connection) {
            this.connection = connection;
        }

        <T> T run(String begin, Work<T> work) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                ended = false;
                statement.executeUpdate(begin);
                try {
                    T result = work.run(connection);
                    statement.executeUpdate("COMMIT");
                    ended = true;
                    return result;
                } catch (SQLException | RuntimeException | Error e) {
                    try {
                        statement.executeUpdate("ROLLBACK");
                        ended = true;
                    } catch (SQLException rollbackFailure) {
                        e.addSuppressed(rollbackFailure);
                    }
                    throw e;
                }
            }
        }
    }

    /**
     * Closes a connection left in an unknown state (SQLite rolls back what it had not committed) and
     * opens another in its place (which fails only when the database file cannot be opened at all).
     */
    private Connection replace(Connection broken, boolean reader) {
        closeQuietly(broken, new IllegalStateException());
        try {
            return reader ? connectReader(file) : connect(file);
        } catch (SQLException e) {
            throw new IllegalStateException("metadata database " + file + ": cannot reopen a connection: "
                    + e.getMessage(), e);
        }
    }

    private Connection borrowReader() throws InterruptedIOException {
        try {
            while (true) {
                requireOpen();
                // Poll rather than take, so a reader waiting while the store closes gives up.
                Connection reader = readers.poll(100, TimeUnit.MILLISECONDS);
                if (reader != null) {
                    if (closed) {
                        readers.add(reader);
                        requireOpen();
                    }
                    return reader;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a metadata database connection");
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

    private static void closeAll(Connection writer, BlockingQueue<Connection> readers, Throwable failure) {
        closeQuietly(writer, failure);
        readers.forEach(reader -> closeQuietly(reader, failure));
    }

    private static void closeQuietly(Connection connection, Throwable failure) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
