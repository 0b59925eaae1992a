package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.RepositoryIndex;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Blob and manifest links. The {@code repositories} table mirrors "has at least one link" so the
 * catalog pages through repository names without scanning every link.
 */
final class SqliteRepositoryIndex implements RepositoryIndex {

    private final SqliteDatabase db;

    SqliteRepositoryIndex(SqliteDatabase db) {
        this.db = db;
    }

    @Override
    public void linkBlob(RepositoryName repository, Digest blob) throws IOException {
        db.write(c -> {
            update(c, "INSERT OR IGNORE INTO blob_links (repository, digest) VALUES (?, ?)", repository, blob);
            registerRepository(c, repository);
            return null;
        });
    }

    @Override
    public boolean hasBlob(RepositoryName repository, Digest blob) throws IOException {
        return db.read(c -> exists(c, "SELECT 1 FROM blob_links WHERE repository = ? AND digest = ?", repository, blob));
    }

    @Override
    public boolean unlinkBlob(RepositoryName repository, Digest blob) throws IOException {
        return db.write(c -> {
            boolean removed = update(c, "DELETE FROM blob_links WHERE repository = ? AND digest = ?", repository, blob) > 0;
            forgetRepositoryIfUnlinked(c, repository);
            return removed;
        });
    }

    @Override
    public void linkManifest(RepositoryName repository, ManifestRecord manifest) throws IOException {
        db.write(c -> {
            try (PreparedStatement insert = c.prepareStatement("""
                    INSERT INTO manifests (repository, digest, media_type, size) VALUES (?, ?, ?, ?)
                    ON CONFLICT (repository, digest) DO UPDATE SET media_type = excluded.media_type, size = excluded.size
                    """)) {
                insert.setString(1, repository.value());
                insert.setString(2, manifest.digest().toString());
                insert.setString(3, manifest.mediaType());
                insert.setLong(4, manifest.size());
                insert.executeUpdate();
            }
            registerRepository(c, repository);
            return null;
        });
    }

    @Override
    public Optional<ManifestRecord> manifest(RepositoryName repository, Digest digest) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT media_type, size FROM manifests WHERE repository = ? AND digest = ?")) {
                query.setString(1, repository.value());
                query.setString(2, digest.toString());
                try (ResultSet row = query.executeQuery()) {
                    return row.next()
                            ? Optional.of(new ManifestRecord(digest, row.getString(1), row.getLong(2)))
                            : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<ManifestRecord> manifests(RepositoryName repository, Optional<Digest> after, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT digest, media_type, size FROM manifests WHERE repository = ? AND digest > ?
                    ORDER BY digest LIMIT ?""")) {
                query.setString(1, repository.value());
                query.setString(2, after.map(Digest::toString).orElse(""));
                query.setInt(3, limit);
                List<ManifestRecord> manifests = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        manifests.add(new ManifestRecord(Digest.parse(rows.getString(1)), rows.getString(2), rows.getLong(3)));
                    }
                }
                return manifests;
            }
        });
    }

    @Override
    public boolean unlinkManifest(RepositoryName repository, Digest digest) throws IOException {
        return db.write(c -> {
            boolean removed = update(c, "DELETE FROM manifests WHERE repository = ? AND digest = ?", repository, digest) > 0;
            update(c, "DELETE FROM tags WHERE repository = ? AND digest = ?", repository, digest);
            // Annotations go with their referrer row (ON DELETE CASCADE).
            update(c, "DELETE FROM referrers WHERE repository = ? AND referrer = ?", repository, digest);
            forgetRepositoryIfUnlinked(c, repository);
            return removed;
        });
    }

    @Override
    public boolean repositoryExists(RepositoryName repository) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("SELECT 1 FROM repositories WHERE name = ?")) {
                query.setString(1, repository.value());
                try (ResultSet row = query.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    @Override
    public List<RepositoryName> repositories(Optional<RepositoryName> after, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT name FROM repositories WHERE name > ? ORDER BY name LIMIT ?")) {
                query.setString(1, after.map(RepositoryName::value).orElse(""));
                query.setInt(2, limit);
                List<RepositoryName> names = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        names.add(RepositoryName.of(rows.getString(1)));
                    }
                }
                return names;
            }
        });
    }

    private static void registerRepository(Connection c, RepositoryName repository) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT OR IGNORE INTO repositories (name) VALUES (?)")) {
            insert.setString(1, repository.value());
            insert.executeUpdate();
        }
    }

    private static void forgetRepositoryIfUnlinked(Connection c, RepositoryName repository) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("""
                DELETE FROM repositories WHERE name = ?1
                  AND NOT EXISTS (SELECT 1 FROM blob_links WHERE repository = ?1)
                  AND NOT EXISTS (SELECT 1 FROM manifests WHERE repository = ?1)
                """)) {
            delete.setString(1, repository.value());
            delete.executeUpdate();
        }
    }

    private static int update(Connection c, String sql, RepositoryName repository, Digest digest) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setString(1, repository.value());
            statement.setString(2, digest.toString());
            return statement.executeUpdate();
        }
    }

    private static boolean exists(Connection c, String sql, RepositoryName repository, Digest digest) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setString(1, repository.value());
            statement.setString(2, digest.toString());
            try (ResultSet row = statement.executeQuery()) {
                return row.next();
            }
        }
    }
}
