package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ReferrerIndex;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Referrer descriptors, with their annotations in a child table (one row per annotation). */
final class SqliteReferrerIndex implements ReferrerIndex {

    private final SqliteDatabase db;

    SqliteReferrerIndex(SqliteDatabase db) {
        this.db = db;
    }

    /** Adding a referrer again replaces its descriptor, so a re-pushed manifest's annotations are current. */
    @Override
    public void addReferrer(RepositoryName repository, Digest subject, Descriptor referrer) throws IOException {
        db.write(c -> {
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO referrers (repository, subject, referrer, media_type, size, artifact_type)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (repository, subject, referrer) DO UPDATE SET media_type = excluded.media_type,
                      size = excluded.size, artifact_type = excluded.artifact_type
                    """)) {
                bindKey(upsert, repository, subject, referrer.digest());
                upsert.setString(4, referrer.mediaType());
                upsert.setLong(5, referrer.size());
                upsert.setString(6, referrer.artifactType());
                upsert.executeUpdate();
            }
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM referrer_annotations WHERE repository = ? AND subject = ? AND referrer = ?")) {
                bindKey(delete, repository, subject, referrer.digest());
                delete.executeUpdate();
            }
            insertAnnotations(c, repository, subject, referrer);
            return null;
        });
    }

    @Override
    public List<Descriptor> referrers(RepositoryName repository, Digest subject) throws IOException {
        return db.read(c -> {
            Map<String, Map<String, String>> annotations = annotations(c, repository, subject);
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT referrer, media_type, size, artifact_type FROM referrers
                    WHERE repository = ? AND subject = ? ORDER BY referrer
                    """)) {
                query.setString(1, repository.value());
                query.setString(2, subject.toString());
                List<Descriptor> referrers = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        String digest = rows.getString(1);
                        referrers.add(new Descriptor(rows.getString(2), Digest.parse(digest), rows.getLong(3),
                                rows.getString(4), annotations.get(digest)));
                    }
                }
                return referrers;
            }
        });
    }

    @Override
    public boolean removeReferrer(RepositoryName repository, Digest subject, Digest referrer) throws IOException {
        return db.write(c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM referrers WHERE repository = ? AND subject = ? AND referrer = ?")) {
                bindKey(delete, repository, subject, referrer);
                return delete.executeUpdate() > 0;
            }
        });
    }

    private static void insertAnnotations(Connection c, RepositoryName repository, Digest subject, Descriptor referrer)
            throws SQLException {
        if (referrer.annotations().isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement("""
                INSERT INTO referrer_annotations (repository, subject, referrer, name, value) VALUES (?, ?, ?, ?, ?)
                """)) {
            for (Map.Entry<String, String> annotation : referrer.annotations().entrySet()) {
                bindKey(insert, repository, subject, referrer.digest());
                insert.setString(4, annotation.getKey());
                insert.setString(5, annotation.getValue());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** All annotations of the subject's referrers, by referrer digest. */
    private static Map<String, Map<String, String>> annotations(Connection c, RepositoryName repository, Digest subject)
            throws SQLException {
        try (PreparedStatement query = c.prepareStatement(
                "SELECT referrer, name, value FROM referrer_annotations WHERE repository = ? AND subject = ?")) {
            query.setString(1, repository.value());
            query.setString(2, subject.toString());
            Map<String, Map<String, String>> byReferrer = new HashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    byReferrer.computeIfAbsent(rows.getString(1), referrer -> new LinkedHashMap<>())
                            .put(rows.getString(2), rows.getString(3));
                }
            }
            return byReferrer;
        }
    }

    private static void bindKey(PreparedStatement statement, RepositoryName repository, Digest subject, Digest referrer)
            throws SQLException {
        statement.setString(1, repository.value());
        statement.setString(2, subject.toString());
        statement.setString(3, referrer.toString());
    }
}
