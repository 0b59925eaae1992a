package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerHeat;
import dev.layerfold.storage.dedup.LayerPulls;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Pull counts in the {@code layer_pulls} table; a batch is one write transaction, so counts add up. */
final class SqliteLayerPulls implements LayerPulls {

    private final SqliteDatabase db;
    private final Clock clock;

    SqliteLayerPulls(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public void record(Map<Digest, Long> pulls) throws IOException {
        long now = clock.millis();
        db.write(c -> {
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO layer_pulls (digest, pulls, at_millis, last_pull_millis) VALUES (?, ?, ?, ?)
                    ON CONFLICT (digest) DO UPDATE SET pulls = excluded.pulls, at_millis = excluded.at_millis,
                      last_pull_millis = excluded.last_pull_millis""")) {
                for (Map.Entry<Digest, Long> pull : pulls.entrySet()) {
                    LayerHeat heat = heat(c, pull.getKey()).orElse(new LayerHeat(0, now, now)).plus(pull.getValue(), now);
                    upsert.setString(1, pull.getKey().toString());
                    upsert.setDouble(2, heat.pulls());
                    upsert.setLong(3, heat.atMillis());
                    upsert.setLong(4, heat.lastPullMillis());
                    upsert.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    public Optional<LayerHeat> heat(Digest layer) throws IOException {
        return db.read(c -> heat(c, layer));
    }

    private static Optional<LayerHeat> heat(Connection c, Digest layer) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(
                "SELECT pulls, at_millis, last_pull_millis FROM layer_pulls WHERE digest = ?")) {
            query.setString(1, layer.toString());
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(new LayerHeat(row.getDouble(1), row.getLong(2), row.getLong(3))) : Optional.empty();
            }
        }
    }

    @Override
    public Map<Digest, LayerHeat> all() throws IOException {
        return db.read(c -> {
            Map<Digest, LayerHeat> all = new LinkedHashMap<>();
            try (PreparedStatement query = c.prepareStatement("SELECT digest, pulls, at_millis, last_pull_millis FROM layer_pulls");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    all.put(Digest.parse(rows.getString(1)), new LayerHeat(rows.getDouble(2), rows.getLong(3), rows.getLong(4)));
                }
            }
            return all;
        });
    }

    @Override
    public long nowMillis() {
        return clock.millis();
    }

    @Override
    public void forget(Collection<Digest> layers, long pulledBeforeMillis) throws IOException {
        db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM layer_pulls WHERE digest = ? AND last_pull_millis < ?")) {
                for (Digest layer : layers) {
                    delete.setString(1, layer.toString());
                    delete.setLong(2, pulledBeforeMillis);
                    delete.executeUpdate();
                }
            }
            return null;
        });
    }
}
