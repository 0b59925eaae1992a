package dev.layerfold.storage.embedded;

import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.UploadState;
import dev.layerfold.storage.metadata.UploadStateStore;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Upload sessions; timestamps are kept to the millisecond. */
final class SqliteUploadStateStore implements UploadStateStore {

    private static final String COLUMNS = "id, repository, size, hash_state, started_at_millis, updated_at_millis";

    private final SqliteDatabase db;

    SqliteUploadStateStore(SqliteDatabase db) {
        this.db = db;
    }

    /** @throws IllegalStateException if an upload with the same id exists */
    @Override
    public void createUpload(UploadState state) throws IOException {
        db.write(c -> {
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO uploads (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                insert.setString(1, state.id());
                insert.setString(2, state.repository().value());
                insert.setLong(3, state.size());
                insert.setBytes(4, state.hashState());
                insert.setLong(5, state.startedAt().toEpochMilli());
                insert.setLong(6, state.updatedAt().toEpochMilli());
                if (insert.executeUpdate() == 0) {
                    throw new IllegalStateException("upload " + state.id() + " already exists; upload ids must be unique");
                }
            }
            return null;
        });
    }

    @Override
    public Optional<UploadState> upload(String uploadId) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("SELECT " + COLUMNS + " FROM uploads WHERE id = ?")) {
                query.setString(1, uploadId);
                try (ResultSet row = query.executeQuery()) {
                    return row.next() ? Optional.of(read(row)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean claimUpload(String uploadId, long expectedSize, String claim, Instant now, Instant expiredBefore)
            throws IOException {
        return db.write(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE uploads SET claim = ?, claim_renewed_millis = ?,"
                    + " updated_at_millis = ? WHERE id = ? AND size = ? AND (claim IS NULL OR claim_renewed_millis < ?)")) {
                update.setString(1, claim);
                update.setLong(2, now.toEpochMilli());
                update.setLong(3, now.toEpochMilli());
                update.setString(4, uploadId);
                update.setLong(5, expectedSize);
                update.setLong(6, expiredBefore.toEpochMilli());
                return update.executeUpdate() > 0;
            }
        });
    }

    @Override
    public boolean renewClaim(String uploadId, String claim, Instant now) throws IOException {
        return db.write(c -> {
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE uploads SET claim_renewed_millis = ?, updated_at_millis = ? WHERE id = ? AND claim = ?")) {
                update.setLong(1, now.toEpochMilli());
                update.setLong(2, now.toEpochMilli());
                update.setString(3, uploadId);
                update.setString(4, claim);
                return update.executeUpdate() > 0;
            }
        });
    }

    @Override
    public void releaseUpload(String uploadId, String claim) throws IOException {
        db.write(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE uploads SET claim = NULL WHERE id = ? AND claim = ?")) {
                update.setString(1, uploadId);
                update.setString(2, claim);
                return update.executeUpdate();
            }
        });
    }

    @Override
    public boolean advanceUpload(UploadState next, long expectedSize, String claim) throws IOException {
        return db.write(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE uploads SET size = ?, hash_state = ?,"
                    + " updated_at_millis = ?, claim = NULL WHERE id = ? AND size = ? AND claim IS ?")) {
                update.setLong(1, next.size());
                update.setBytes(2, next.hashState());
                update.setLong(3, next.updatedAt().toEpochMilli());
                update.setString(4, next.id());
                update.setLong(5, expectedSize);
                update.setString(6, claim);
                return update.executeUpdate() > 0;
            }
        });
    }

    @Override
    public boolean deleteUpload(String uploadId) throws IOException {
        return db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM uploads WHERE id = ?")) {
                delete.setString(1, uploadId);
                return delete.executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<UploadState> uploadsIdleSince(Instant cutoff) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM uploads WHERE updated_at_millis < ? ORDER BY updated_at_millis, id")) {
                query.setLong(1, cutoff.toEpochMilli());
                List<UploadState> idle = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        idle.add(read(rows));
                    }
                }
                return idle;
            }
        });
    }

    private static UploadState read(ResultSet row) throws SQLException {
        return new UploadState(row.getString(1), RepositoryName.of(row.getString(2)), row.getLong(3), row.getBytes(4),
                Instant.ofEpochMilli(row.getLong(5)), Instant.ofEpochMilli(row.getLong(6)));
    }
}
