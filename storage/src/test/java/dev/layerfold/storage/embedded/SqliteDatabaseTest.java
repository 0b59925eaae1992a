package dev.layerfold.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.ProgressHandler;

class SqliteDatabaseTest {

    @TempDir
    Path directory;

    /**
     * An Error (such as OutOfMemoryError) or a failed ROLLBACK used to hand the connection back to the
     * pool inside its transaction, and every later use of it failed with "cannot start a transaction
     * within a transaction". Here the ROLLBACK is interrupted by a progress handler.
     */
    @Test
    void connectionWhoseTransactionCouldNotBeEndedIsNeverUsedAgain() throws Exception {
        try (SqliteDatabase db = SqliteDatabase.open(directory.resolve("metadata.db"))) {
            for (boolean write : new boolean[] {false, true}) {
                assertThatThrownBy(() -> run(db, write, connection -> {
                    interruptNextStatement(connection);
                    throw new OutOfMemoryError("simulated");
                })).isInstanceOf(OutOfMemoryError.class);

                for (int i = 0; i < 8; i++) {
                    assertThat(run(db, write, SqliteDatabaseTest::one)).isEqualTo(1);
                }
            }
        }
    }

    private static <T> T run(SqliteDatabase db, boolean write, SqliteDatabase.Work<T> work) throws Exception {
        return write ? db.write(work) : db.read(work);
    }

    private static int one(java.sql.Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery("SELECT 1")) {
            result.next();
            return result.getInt(1);
        }
    }

    private static void interruptNextStatement(java.sql.Connection connection) throws SQLException {
        AtomicBoolean fired = new AtomicBoolean();
        ProgressHandler.setHandler(connection, 1, new ProgressHandler() {
            @Override
            protected int progress() {
                return fired.getAndSet(true) ? 0 : 1;
            }
        });
    }
}
