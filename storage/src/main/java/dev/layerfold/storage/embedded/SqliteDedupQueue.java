package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.dedup.TakenTask;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The dedup queue as a table of the metadata database: a row per waiting layer, handed out by
 * setting its lease (worker and expiry) in the same write transaction that picks it, so two workers
 * of one or several processes on the host never take the same row while its lease lasts.
 */
final class SqliteDedupQueue implements DedupQueue {

    private final SqliteDatabase db;
    private final Clock clock;

    SqliteDedupQueue(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public void enqueue(LayerTask task) throws IOException {
        db.write(c -> {
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO dedup_queue (layer, media_type, size) VALUES (?, ?, ?) ON CONFLICT (layer) DO NOTHING")) {
                insert.setString(1, task.layer().toString());
                insert.setString(2, task.mediaType());
                insert.setLong(3, task.size());
                insert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<TakenTask> take(String worker, Duration lease) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            try (PreparedStatement take = c.prepareStatement("""
                    UPDATE dedup_queue SET worker = ?, lease_until_millis = ?, deliveries = deliveries + 1
                    WHERE id = (SELECT id FROM dedup_queue WHERE lease_until_millis <= ? ORDER BY lease_until_millis, id LIMIT 1)
                    RETURNING id, layer, media_type, size, deliveries""")) {
                take.setString(1, worker);
                take.setLong(2, now + lease.toMillis());
                take.setLong(3, now);
                try (ResultSet row = take.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    LayerTask task = new LayerTask(Digest.parse(row.getString(2)), row.getString(3), row.getLong(4));
                    return Optional.of(new TakenTask(Long.toString(row.getLong(1)), task, row.getInt(5)));
                }
            }
        });
    }

    @Override
    public boolean renew(TakenTask task, String worker, Duration lease) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            try (PreparedStatement renew = c.prepareStatement("""
                    UPDATE dedup_queue SET lease_until_millis = ?
                    WHERE id = ? AND worker = ? AND deliveries = ? AND lease_until_millis > ?""")) {
                renew.setLong(1, now + lease.toMillis());
                renew.setLong(2, Long.parseLong(task.id()));
                renew.setString(3, worker);
                renew.setInt(4, task.deliveries());
                renew.setLong(5, now);
                return renew.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void complete(TakenTask task) throws IOException {
        db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM dedup_queue WHERE id = ?")) {
                delete.setLong(1, Long.parseLong(task.id()));
                delete.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public long backlog() throws IOException {
        return db.read(c -> count(c, "SELECT count(*) FROM dedup_queue"));
    }

    static long count(Connection c, String sql) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(sql); ResultSet row = query.executeQuery()) {
            return row.next() ? row.getLong(1) : 0;
        }
    }
}
