package dev.layerfold.storage.embedded;

import dev.layerfold.storage.notification.NotificationOutbox;
import dev.layerfold.storage.notification.OutboxBatch;
import dev.layerfold.storage.notification.OutboxEntry;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outbox as two tables of the metadata database: the events, keyed by endpoint and sequence, and a
 * row per endpoint with its next sequence, its depth (so an append need not count the queue), its
 * lease and its backoff. Every operation is one write transaction (an append to several endpoints too), so processes on the host sharing
 * the file never both hold an endpoint.
 */
final class SqliteNotificationOutbox implements NotificationOutbox {

    private final SqliteDatabase db;
    private final Clock clock;

    SqliteNotificationOutbox(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public Map<String, Long> append(List<OutboxAppend> appends) throws IOException {
        if (appends.stream().allMatch(append -> append.events().isEmpty())) {
            return Map.of();
        }
        return db.write(c -> {
            Map<String, Long> dropped = new LinkedHashMap<>();
            for (OutboxAppend append : appends) {
                if (!append.events().isEmpty()) {
                    dropped.merge(append.endpoint(), append(c, append), Long::sum);
                }
            }
            return dropped;
        });
    }

    private static long append(Connection c, OutboxAppend append) throws SQLException {
        String endpoint = append.endpoint();
        try (PreparedStatement row = c.prepareStatement(
                "INSERT INTO notification_endpoints (endpoint) VALUES (?) ON CONFLICT (endpoint) DO NOTHING")) {
            row.setString(1, endpoint);
            row.executeUpdate();
        }
        long next;
        long depth;
        try (PreparedStatement query = c.prepareStatement(
                "SELECT next_sequence, depth FROM notification_endpoints WHERE endpoint = ?")) {
            query.setString(1, endpoint);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                next = row.getLong(1);
                depth = row.getLong(2);
            }
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO notification_outbox (endpoint, sequence, event) VALUES (?, ?, ?)")) {
            for (String event : append.events()) {
                insert.setString(1, endpoint);
                insert.setLong(2, next++);
                insert.setString(3, event);
                insert.executeUpdate();
            }
        }
        depth += append.events().size();
        long dropped = 0;
        if (depth > append.capacity()) {
            try (PreparedStatement drop = c.prepareStatement("""
                    DELETE FROM notification_outbox WHERE endpoint = ? AND sequence IN
                      (SELECT sequence FROM notification_outbox WHERE endpoint = ? ORDER BY sequence LIMIT ?)""")) {
                drop.setString(1, endpoint);
                drop.setString(2, endpoint);
                drop.setLong(3, depth - append.capacity());
                dropped = drop.executeUpdate();
            }
            depth -= dropped;
        }
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE notification_endpoints SET next_sequence = ?, depth = ? WHERE endpoint = ?")) {
            update.setLong(1, next);
            update.setLong(2, depth);
            update.setString(3, endpoint);
            update.executeUpdate();
        }
        return dropped;
    }

    @Override
    public Optional<OutboxBatch> claim(String endpoint, String holder, Duration lease, int max) throws IOException {
        long now = clock.millis();
        // Most calls find nothing to claim (an idle or backed-off endpoint): a read answers those
        // without taking the one write lock the API's writes need.
        boolean claimable = db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT 1 FROM notification_endpoints WHERE endpoint = ? AND depth > 0 AND not_before_millis <= ?
                      AND (holder IS NULL OR holder = ? OR lease_until_millis <= ?)""")) {
                query.setString(1, endpoint);
                query.setLong(2, now);
                query.setString(3, holder);
                query.setLong(4, now);
                try (ResultSet row = query.executeQuery()) {
                    return row.next();
                }
            }
        });
        if (!claimable) {
            return Optional.empty();
        }
        return db.write(c -> {
            int attempts;
            try (PreparedStatement claim = c.prepareStatement("""
                    UPDATE notification_endpoints SET holder = ?, lease_until_millis = ?
                    WHERE endpoint = ? AND depth > 0 AND not_before_millis <= ?
                      AND (holder IS NULL OR holder = ? OR lease_until_millis <= ?)
                    RETURNING attempts""")) {
                claim.setString(1, holder);
                claim.setLong(2, now + lease.toMillis());
                claim.setString(3, endpoint);
                claim.setLong(4, now);
                claim.setString(5, holder);
                claim.setLong(6, now);
                try (ResultSet row = claim.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    attempts = row.getInt(1);
                }
            }
            List<OutboxEntry> entries = new ArrayList<>();
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT sequence, event FROM notification_outbox WHERE endpoint = ? ORDER BY sequence LIMIT ?")) {
                query.setString(1, endpoint);
                query.setInt(2, max);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        entries.add(new OutboxEntry(rows.getLong(1), rows.getString(2)));
                    }
                }
            }
            return entries.isEmpty() ? Optional.empty() : Optional.of(new OutboxBatch(endpoint, entries, attempts));
        });
    }

    @Override
    public boolean renew(String endpoint, String holder, Duration lease) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            try (PreparedStatement renew = c.prepareStatement("""
                    UPDATE notification_endpoints SET lease_until_millis = ?
                    WHERE endpoint = ? AND holder = ? AND lease_until_millis > ?""")) {
                renew.setLong(1, now + lease.toMillis());
                renew.setString(2, endpoint);
                renew.setString(3, holder);
                renew.setLong(4, now);
                return renew.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void delivered(OutboxBatch batch, String holder) throws IOException {
        db.write(c -> {
            long removed;
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM notification_outbox WHERE endpoint = ? AND sequence <= ?")) {
                delete.setString(1, batch.endpoint());
                delete.setLong(2, batch.lastSequence());
                removed = delete.executeUpdate();
            }
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE notification_endpoints SET depth = depth - ?,
                      attempts = CASE WHEN holder = ? THEN 0 ELSE attempts END,
                      lease_until_millis = CASE WHEN holder = ? THEN 0 ELSE lease_until_millis END,
                      holder = CASE WHEN holder = ? THEN NULL ELSE holder END
                    WHERE endpoint = ?""")) {
                update.setLong(1, removed);
                update.setString(2, holder);
                update.setString(3, holder);
                update.setString(4, holder);
                update.setString(5, batch.endpoint());
                update.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void failed(String endpoint, String holder, Duration retryIn) throws IOException {
        long now = clock.millis();
        db.write(c -> {
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE notification_endpoints SET attempts = attempts + 1, not_before_millis = ?,
                      holder = NULL, lease_until_millis = 0
                    WHERE endpoint = ? AND holder = ?""")) {
                update.setLong(1, now + retryIn.toMillis());
                update.setString(2, endpoint);
                update.setString(3, holder);
                update.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public long depth(String endpoint) throws IOException {
        return db.read(c -> depth(c, endpoint));
    }

    private static long depth(Connection c, String endpoint) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT depth FROM notification_endpoints WHERE endpoint = ?")) {
            query.setString(1, endpoint);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }
}
