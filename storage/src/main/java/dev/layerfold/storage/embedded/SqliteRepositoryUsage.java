package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.usage.RepositoryUsage;
import dev.layerfold.storage.usage.Usage;
import dev.layerfold.storage.usage.UsageOrder;
import dev.layerfold.storage.usage.UsageTotals;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-repository accounting in the metadata database: each method one transaction. A blob's holders
 * are rows of {@code usage_holdings}, so a change of a blob's stored bytes or of who holds it touches
 * the rows of the repositories holding it and nothing else.
 */
final class SqliteRepositoryUsage implements RepositoryUsage {

    private static final String COLUMNS = "repository, logical, exclusive, stored, freed, pushes, pulls";

    private final SqliteDatabase db;

    SqliteRepositoryUsage(SqliteDatabase db) {
        this.db = db;
    }

    @Override
    public void referenced(RepositoryName repository, Digest manifest, Map<Digest, Long> blobs) throws IOException {
        db.write(c -> {
            try (PreparedStatement holder = c.prepareStatement(
                    "INSERT OR IGNORE INTO usage_manifests (repository, manifest, blobs) VALUES (?, ?, ?)")) {
                holder.setString(1, repository.value());
                holder.setString(2, manifest.toString());
                holder.setString(3, String.join(" ", blobs.keySet().stream().map(Digest::toString).toList()));
                if (holder.executeUpdate() == 0) {
                    return null;
                }
            }
            ensureRepository(c, repository);
            add(c, repository, "pushes", 1);
            for (Map.Entry<Digest, Long> blob : blobs.entrySet()) {
                hold(c, repository, blob.getKey(), blob.getValue());
            }
            return null;
        });
    }

    private void hold(Connection c, RepositoryName repository, Digest digest, long size) throws SQLException {
        try (PreparedStatement more = c.prepareStatement(
                "UPDATE usage_holdings SET manifests = manifests + 1 WHERE digest = ? AND repository = ?")) {
            more.setString(1, digest.toString());
            more.setString(2, repository.value());
            if (more.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement blob = c.prepareStatement(
                "INSERT INTO usage_blobs (digest, size, stored) VALUES (?, ?, ?) "
                        + "ON CONFLICT (digest) DO UPDATE SET size = coalesce(size, excluded.size)")) {
            blob.setString(1, digest.toString());
            blob.setLong(2, size);
            blob.setLong(3, size);
            blob.executeUpdate();
        }
        long[] sizes = sizes(c, digest);
        List<String> before = holders(c, digest);
        try (PreparedStatement holding = c.prepareStatement(
                "INSERT INTO usage_holdings (digest, repository, manifests) VALUES (?, ?, 1)")) {
            holding.setString(1, digest.toString());
            holding.setString(2, repository.value());
            holding.executeUpdate();
        }
        add(c, repository, "logical", sizes[0]);
        add(c, repository, "stored", sizes[1]);
        if (before.isEmpty()) {
            add(c, repository, "exclusive", sizes[0]);
            add(c, repository, "freed", sizes[1]);
        } else if (before.size() == 1) {
            RepositoryName other = RepositoryName.of(before.getFirst());
            add(c, other, "exclusive", -sizes[0]);
            add(c, other, "freed", -sizes[1]);
        }
    }

    @Override
    public void unreferenced(RepositoryName repository, Digest manifest) throws IOException {
        db.write(c -> {
            String blobs;
            try (PreparedStatement holder = c.prepareStatement(
                    "DELETE FROM usage_manifests WHERE repository = ? AND manifest = ? RETURNING blobs")) {
                holder.setString(1, repository.value());
                holder.setString(2, manifest.toString());
                try (ResultSet row = holder.executeQuery()) {
                    if (!row.next()) {
                        return null;
                    }
                    blobs = row.getString(1);
                }
            }
            for (String digest : blobs.split(" ")) {
                if (!digest.isEmpty()) {
                    release(c, repository, Digest.parse(digest));
                }
            }
            return null;
        });
    }

    private void release(Connection c, RepositoryName repository, Digest digest) throws SQLException {
        try (PreparedStatement fewer = c.prepareStatement(
                "UPDATE usage_holdings SET manifests = manifests - 1 WHERE digest = ? AND repository = ? AND manifests > 1")) {
            fewer.setString(1, digest.toString());
            fewer.setString(2, repository.value());
            if (fewer.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement gone = c.prepareStatement("DELETE FROM usage_holdings WHERE digest = ? AND repository = ?")) {
            gone.setString(1, digest.toString());
            gone.setString(2, repository.value());
            if (gone.executeUpdate() == 0) {
                return;
            }
        }
        long[] sizes = sizes(c, digest);
        List<String> after = holders(c, digest);
        add(c, repository, "logical", -sizes[0]);
        add(c, repository, "stored", -sizes[1]);
        if (after.isEmpty()) {
            add(c, repository, "exclusive", -sizes[0]);
            add(c, repository, "freed", -sizes[1]);
        } else if (after.size() == 1) {
            RepositoryName other = RepositoryName.of(after.getFirst());
            add(c, other, "exclusive", sizes[0]);
            add(c, other, "freed", sizes[1]);
        }
    }

    @Override
    public void stored(Digest blob, long storedBytes) throws IOException {
        db.write(c -> {
            long before;
            try (PreparedStatement read = c.prepareStatement("SELECT stored FROM usage_blobs WHERE digest = ?")) {
                read.setString(1, blob.toString());
                try (ResultSet row = read.executeQuery()) {
                    before = row.next() ? row.getLong(1) : -1;
                }
            }
            try (PreparedStatement write = c.prepareStatement("INSERT INTO usage_blobs (digest, size, stored) VALUES (?, NULL, ?) "
                    + "ON CONFLICT (digest) DO UPDATE SET stored = excluded.stored")) {
                write.setString(1, blob.toString());
                write.setLong(2, storedBytes);
                write.executeUpdate();
            }
            if (before < 0 || before == storedBytes) {
                return null;
            }
            long delta = storedBytes - before;
            List<String> holders = holders(c, blob);
            for (String holder : holders) {
                RepositoryName repository = RepositoryName.of(holder);
                add(c, repository, "stored", delta);
                if (holders.size() == 1) {
                    add(c, repository, "freed", delta);
                }
            }
            return null;
        });
    }

    @Override
    public void pulled(Map<RepositoryName, Long> pulls) throws IOException {
        if (pulls.isEmpty()) {
            return;
        }
        db.write(c -> {
            for (Map.Entry<RepositoryName, Long> pull : pulls.entrySet()) {
                ensureRepository(c, pull.getKey());
                add(c, pull.getKey(), "pulls", pull.getValue());
            }
            return null;
        });
    }

    @Override
    public Optional<Usage> usage(RepositoryName repository) throws IOException {
        return db.read(c -> {
            try (PreparedStatement read = c.prepareStatement("SELECT " + COLUMNS + " FROM usage_repositories WHERE repository = ?")) {
                read.setString(1, repository.value());
                try (ResultSet row = read.executeQuery()) {
                    return row.next() ? Optional.of(usage(row)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<Usage> page(UsageOrder order, int offset, int limit) throws IOException {
        String sort = switch (order) {
            case STORED -> "stored DESC, repository";
            case LOGICAL -> "logical DESC, repository";
            case FREED -> "freed DESC, repository";
            case PULLS -> "pulls DESC, repository";
            case NAME -> "repository";
        };
        return db.read(c -> {
            try (PreparedStatement read = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM usage_repositories ORDER BY " + sort + " LIMIT ? OFFSET ?")) {
                read.setInt(1, limit);
                read.setInt(2, offset);
                List<Usage> page = new ArrayList<>();
                try (ResultSet rows = read.executeQuery()) {
                    while (rows.next()) {
                        page.add(usage(rows));
                    }
                }
                return page;
            }
        });
    }

    @Override
    public UsageTotals totals() throws IOException {
        return db.read(c -> {
            try (Statement statement = c.createStatement();
                 ResultSet row = statement.executeQuery("""
                         SELECT coalesce(sum(b.size), 0), coalesce(sum(b.stored), 0),
                                coalesce(sum(CASE WHEN h.holders > 1 THEN b.size ELSE 0 END), 0),
                                coalesce(sum(CASE WHEN h.holders > 1 THEN b.stored ELSE 0 END), 0),
                                (SELECT count(*) FROM usage_repositories)
                         FROM (SELECT digest, count(*) AS holders FROM usage_holdings GROUP BY digest) h
                         JOIN usage_blobs b ON b.digest = h.digest""")) {
                row.next();
                return new UsageTotals(row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4), row.getLong(5));
            }
        });
    }

    @Override
    public boolean complete() throws IOException {
        return db.read(c -> {
            try (Statement statement = c.createStatement();
                 ResultSet row = statement.executeQuery("SELECT 1 FROM usage_complete")) {
                return row.next();
            }
        });
    }

    @Override
    public void clear() throws IOException {
        db.write(c -> {
            try (Statement statement = c.createStatement()) {
                for (String table : List.of("usage_complete", "usage_repositories", "usage_blobs", "usage_holdings", "usage_manifests")) {
                    statement.executeUpdate("DELETE FROM " + table);
                }
            }
            return null;
        });
    }

    @Override
    public void markComplete() throws IOException {
        db.write(c -> {
            try (Statement statement = c.createStatement()) {
                statement.executeUpdate("INSERT OR IGNORE INTO usage_complete (one) VALUES (1)");
            }
            return null;
        });
    }

    private static Usage usage(ResultSet row) throws SQLException {
        return new Usage(RepositoryName.of(row.getString(1)), row.getLong(2), row.getLong(3), row.getLong(4),
                row.getLong(5), row.getLong(6), row.getLong(7));
    }

    private static void ensureRepository(Connection c, RepositoryName repository) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT OR IGNORE INTO usage_repositories (repository) VALUES (?)")) {
            insert.setString(1, repository.value());
            insert.executeUpdate();
        }
    }

    /** Adds to one figure of a repository; {@code column} is one of this class's own constants. */
    private static void add(Connection c, RepositoryName repository, String column, long delta) throws SQLException {
        if (delta == 0) {
            return;
        }
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE usage_repositories SET " + column + " = " + column + " + ? WHERE repository = ?")) {
            update.setLong(1, delta);
            update.setString(2, repository.value());
            update.executeUpdate();
        }
    }

    /** The blob's size as pushed and its stored bytes. */
    private static long[] sizes(Connection c, Digest digest) throws SQLException {
        try (PreparedStatement read = c.prepareStatement("SELECT coalesce(size, 0), stored FROM usage_blobs WHERE digest = ?")) {
            read.setString(1, digest.toString());
            try (ResultSet row = read.executeQuery()) {
                return row.next() ? new long[] {row.getLong(1), row.getLong(2)} : new long[] {0, 0};
            }
        }
    }

    private static List<String> holders(Connection c, Digest digest) throws SQLException {
        try (PreparedStatement read = c.prepareStatement("SELECT repository FROM usage_holdings WHERE digest = ?")) {
            read.setString(1, digest.toString());
            List<String> holders = new ArrayList<>();
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    holders.add(rows.getString(1));
                }
            }
            return holders;
        }
    }
}
