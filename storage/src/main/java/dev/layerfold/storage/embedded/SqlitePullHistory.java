package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.predictor.ImageRef;
import dev.layerfold.storage.predictor.PullHistory;
import dev.layerfold.storage.predictor.PullHistoryLimits;
import dev.layerfold.storage.predictor.UserHistory;
import dev.layerfold.storage.predictor.UserHistory.LayerPulls;
import dev.layerfold.storage.predictor.UserHistory.RepullCounts;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * ULmap as tables of the metadata database: a row per user and layer pulled, a row of repull counters
 * per user and per image. Each update is one write transaction, so concurrent pulls of one or several
 * processes on the host never lose a count.
 */
final class SqlitePullHistory implements PullHistory {

    private final SqliteDatabase db;
    private final PullHistoryLimits limits;

    SqlitePullHistory(SqliteDatabase db, PullHistoryLimits limits) {
        this.db = db;
        this.limits = limits;
    }

    private long cutoff(Instant now) {
        return now.toEpochMilli() - limits.forgetAfter().toMillis();
    }

    @Override
    public UserHistory read(String user, ImageRef image, Collection<Digest> layers, Instant now) throws IOException {
        long cutoff = cutoff(now);
        return db.read(c -> {
            Map<Digest, LayerPulls> pulls = new HashMap<>();
            RepullCounts counts = RepullCounts.NONE;
            Optional<ImageRef> lastImage = Optional.empty();
            String platform = "";
            try (PreparedStatement select = c.prepareStatement("""
                    SELECT offered, repulled, last_repository, last_manifest, platform FROM predictor_users
                    WHERE user = ? AND seen_millis >= ?""")) {
                select.setString(1, user);
                select.setLong(2, cutoff);
                try (ResultSet row = select.executeQuery()) {
                    if (row.next()) {
                        counts = new RepullCounts(row.getLong(1), row.getLong(2));
                        if (row.getString(3) != null) {
                            lastImage = Optional.of(new ImageRef(RepositoryName.of(row.getString(3)),
                                    Digest.parse(row.getString(4))));
                        }
                        platform = row.getString(5);
                    }
                }
            }
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT count, last_millis FROM predictor_pulls WHERE user = ? AND layer = ? AND last_millis >= ?")) {
                for (Digest layer : layers) {
                    select.setString(1, user);
                    select.setString(2, layer.toString());
                    select.setLong(3, cutoff);
                    try (ResultSet row = select.executeQuery()) {
                        if (row.next()) {
                            pulls.put(layer, new LayerPulls(row.getLong(1), row.getLong(2)));
                        }
                    }
                }
            }
            return new UserHistory(pulls, counts, imageCounts(c, image, cutoff), lastImage, platform);
        });
    }

    private static RepullCounts imageCounts(Connection c, ImageRef image, long cutoff) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("""
                SELECT offered, repulled FROM predictor_image_repulls
                WHERE repository = ? AND manifest = ? AND seen_millis >= ?""")) {
            select.setString(1, image.repository().value());
            select.setString(2, image.manifest().toString());
            select.setLong(3, cutoff);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? new RepullCounts(row.getLong(1), row.getLong(2)) : RepullCounts.NONE;
            }
        }
    }

    @Override
    public void offered(String user, ImageRef image, int heldLayers, String platform, Instant now) throws IOException {
        long millis = now.toEpochMilli();
        long cutoff = cutoff(now);
        db.write(c -> {
            forgetUserIfIdle(c, user, cutoff);
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO predictor_users (user, offered, last_repository, last_manifest, platform, seen_millis)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user) DO UPDATE SET offered = offered + excluded.offered,
                      last_repository = excluded.last_repository, last_manifest = excluded.last_manifest,
                      platform = CASE WHEN excluded.platform = '' THEN platform ELSE excluded.platform END,
                      seen_millis = excluded.seen_millis""")) {
                upsert.setString(1, user);
                upsert.setInt(2, heldLayers);
                upsert.setString(3, image.repository().value());
                upsert.setString(4, image.manifest().toString());
                upsert.setString(5, platform);
                upsert.setLong(6, millis);
                upsert.executeUpdate();
            }
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO predictor_image_repulls (repository, manifest, offered, seen_millis) VALUES (?, ?, ?, ?)
                    ON CONFLICT (repository, manifest) DO UPDATE SET offered = offered + excluded.offered,
                      seen_millis = excluded.seen_millis""")) {
                upsert.setString(1, image.repository().value());
                upsert.setString(2, image.manifest().toString());
                upsert.setInt(3, heldLayers);
                upsert.setLong(4, millis);
                upsert.executeUpdate();
            }
            try (PreparedStatement decay = c.prepareStatement("""
                    UPDATE predictor_users SET offered = offered / 2, repulled = repulled / 2
                    WHERE user = ? AND offered >= ?""")) {
                decay.setString(1, user);
                decay.setLong(2, limits.decayAt());
                decay.executeUpdate();
            }
            try (PreparedStatement decay = c.prepareStatement("""
                    UPDATE predictor_image_repulls SET offered = offered / 2, repulled = repulled / 2
                    WHERE repository = ? AND manifest = ? AND offered >= ?""")) {
                decay.setString(1, image.repository().value());
                decay.setString(2, image.manifest().toString());
                decay.setLong(3, limits.decayAt());
                decay.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public long pulled(String user, Digest layer, Instant now) throws IOException {
        long millis = now.toEpochMilli();
        long cutoff = cutoff(now);
        return db.write(c -> {
            forgetUserIfIdle(c, user, cutoff);
            try (PreparedStatement expire = c.prepareStatement(
                    "DELETE FROM predictor_pulls WHERE user = ? AND last_millis < ?")) {
                expire.setString(1, user);
                expire.setLong(2, cutoff);
                expire.executeUpdate();
            }
            long before;
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO predictor_pulls (user, layer, count, last_millis) VALUES (?, ?, 1, ?)
                    ON CONFLICT (user, layer) DO UPDATE SET count = count + 1, last_millis = excluded.last_millis
                    RETURNING count""")) {
                upsert.setString(1, user);
                upsert.setString(2, layer.toString());
                upsert.setLong(3, millis);
                try (ResultSet row = upsert.executeQuery()) {
                    row.next();
                    before = row.getLong(1) - 1;
                }
            }
            try (PreparedStatement trim = c.prepareStatement("""
                    DELETE FROM predictor_pulls WHERE user = ? AND layer IN (SELECT layer FROM predictor_pulls
                      WHERE user = ? ORDER BY last_millis DESC, layer DESC LIMIT -1 OFFSET ?)""")) {
                trim.setString(1, user);
                trim.setString(2, user);
                trim.setInt(3, limits.layersPerUser());
                trim.executeUpdate();
            }
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO predictor_users (user, repulled, seen_millis) VALUES (?, ?, ?)
                    ON CONFLICT (user) DO UPDATE SET repulled = repulled + excluded.repulled, seen_millis = excluded.seen_millis
                    RETURNING last_repository, last_manifest""")) {
                upsert.setString(1, user);
                upsert.setInt(2, before > 0 ? 1 : 0);
                upsert.setLong(3, millis);
                try (ResultSet row = upsert.executeQuery()) {
                    row.next();
                    if (before > 0 && row.getString(1) != null) {
                        countImageRepull(c, row.getString(1), row.getString(2), millis);
                    }
                }
            }
            return before;
        });
    }

    private static void countImageRepull(Connection c, String repository, String manifest, long millis) throws SQLException {
        try (PreparedStatement upsert = c.prepareStatement("""
                INSERT INTO predictor_image_repulls (repository, manifest, repulled, seen_millis) VALUES (?, ?, 1, ?)
                ON CONFLICT (repository, manifest) DO UPDATE SET repulled = repulled + 1, seen_millis = excluded.seen_millis""")) {
            upsert.setString(1, repository);
            upsert.setString(2, manifest);
            upsert.setLong(3, millis);
            upsert.executeUpdate();
        }
    }

    /** A user idle past the forgetting time starts afresh, as if {@link #forgetIdle} had run. */
    private static void forgetUserIfIdle(Connection c, String user, long cutoff) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(
                "DELETE FROM predictor_users WHERE user = ? AND seen_millis < ?")) {
            delete.setString(1, user);
            delete.setLong(2, cutoff);
            delete.executeUpdate();
        }
    }

    @Override
    public void forgetIdle(Instant now) throws IOException {
        long cutoff = cutoff(now);
        db.write(c -> {
            for (String sql : new String[] {"DELETE FROM predictor_users WHERE seen_millis < ?",
                    "DELETE FROM predictor_pulls WHERE last_millis < ?",
                    "DELETE FROM predictor_image_repulls WHERE seen_millis < ?"}) {
                try (PreparedStatement delete = c.prepareStatement(sql)) {
                    delete.setLong(1, cutoff);
                    delete.executeUpdate();
                }
            }
            return null;
        });
    }
}
