package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.TagStore;
import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Tags as rows; an upsert is one statement, so concurrent writers of a tag are last-write-wins. */
final class SqliteTagStore implements TagStore {

    private final SqliteDatabase db;

    SqliteTagStore(SqliteDatabase db) {
        this.db = db;
    }

    @Override
    public void putTag(RepositoryName repository, String tag, Digest manifest) throws IOException {
        db.write(c -> {
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO tags (repository, tag, digest) VALUES (?, ?, ?)
                    ON CONFLICT (repository, tag) DO UPDATE SET digest = excluded.digest
                    """)) {
                upsert.setString(1, repository.value());
                upsert.setString(2, tag);
                upsert.setString(3, manifest.toString());
                return upsert.executeUpdate();
            }
        });
    }

    @Override
    public Optional<Digest> tag(RepositoryName repository, String tag) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("SELECT digest FROM tags WHERE repository = ? AND tag = ?")) {
                query.setString(1, repository.value());
                query.setString(2, tag);
                try (ResultSet row = query.executeQuery()) {
                    return row.next() ? Optional.of(Digest.parse(row.getString(1))) : Optional.empty();
                }
            }
        });
    }

    @Override
    public boolean deleteTag(RepositoryName repository, String tag) throws IOException {
        return db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM tags WHERE repository = ? AND tag = ?")) {
                delete.setString(1, repository.value());
                delete.setString(2, tag);
                return delete.executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<String> tags(RepositoryName repository, Optional<String> after, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT tag FROM tags WHERE repository = ? AND tag > ? ORDER BY tag LIMIT ?")) {
                query.setString(1, repository.value());
                query.setString(2, after.orElse(""));
                query.setInt(3, limit);
                List<String> tags = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        tags.add(rows.getString(1));
                    }
                }
                return tags;
            }
        });
    }
}
