package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.gc.GcIndex;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The garbage collector's index in the metadata database. Each method is one transaction, and SQLite
 * has one writer at a time, which is what makes a condemn atomic against a touch or a reference.
 */
final class SqliteGcIndex implements GcIndex {

    /** SQLite's completeness depends on nothing beside the file itself. */
    private static final String GENERATION = "sqlite";

    private final SqliteDatabase db;
    private final Clock clock;

    SqliteGcIndex(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public boolean touch(RepositoryName repository, Digest digest) throws IOException {
        return touch(Optional.of(repository), digest);
    }

    @Override
    public boolean touch(Digest digest) throws IOException {
        return touch(Optional.empty(), digest);
    }

    private boolean touch(Optional<RepositoryName> linkedInto, Digest digest) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            if (condemnedAt(c, digest, now).isPresent()) {
                return false;
            }
            becameCandidate(c, digest, now);
            if (linkedInto.isPresent()) {
                try (PreparedStatement link = c.prepareStatement("INSERT OR IGNORE INTO gc_links (digest, repository) VALUES (?, ?)")) {
                    link.setString(1, digest.toString());
                    link.setString(2, linkedInto.get().value());
                    link.executeUpdate();
                }
            }
            return true;
        });
    }

    @Override
    public Set<Digest> reference(RepositoryName repository, Digest manifest, Collection<Digest> targets) throws IOException {
        long now = clock.millis();
        Set<Digest> distinct = new LinkedHashSet<>(targets);
        return db.write(c -> {
            Set<Digest> condemned = new LinkedHashSet<>();
            for (Digest target : distinct) {
                condemnedAt(c, target, now).ifPresent(at -> condemned.add(target));
            }
            if (!condemned.isEmpty()) {
                return condemned;
            }
            try (PreparedStatement holder = c.prepareStatement(
                    "INSERT OR IGNORE INTO gc_holders (repository, manifest, since_millis) VALUES (?, ?, ?)")) {
                holder.setString(1, repository.value());
                holder.setString(2, manifest.toString());
                holder.setLong(3, now);
                holder.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT OR IGNORE INTO gc_references (target, repository, manifest) VALUES (?, ?, ?)")) {
                for (Digest target : distinct) {
                    insert.setString(1, target.toString());
                    insert.setString(2, repository.value());
                    insert.setString(3, manifest.toString());
                    insert.executeUpdate();
                }
            }
            forgetHolder(c, "gc_releases", repository, manifest);
            return Set.of();
        });
    }

    @Override
    public void unreference(RepositoryName repository, Digest manifest) throws IOException {
        long now = clock.millis();
        db.write(c -> {
            unreference(c, repository, manifest, now);
            return null;
        });
    }

    private static void unreference(Connection c, RepositoryName repository, Digest manifest, long now) throws SQLException {
        List<Digest> targets = new ArrayList<>();
        try (PreparedStatement query = c.prepareStatement(
                "SELECT target FROM gc_references WHERE repository = ? AND manifest = ?")) {
            query.setString(1, repository.value());
            query.setString(2, manifest.toString());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    targets.add(Digest.parse(rows.getString(1)));
                }
            }
        }
        for (String table : List.of("gc_references", "gc_holders", "gc_releases")) {
            forgetHolder(c, table, repository, manifest);
        }
        for (Digest target : targets) {
            becameCandidate(c, target, now);
        }
    }

    private static void forgetHolder(Connection c, String table, RepositoryName repository, Digest manifest) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE repository = ? AND manifest = ?")) {
            delete.setString(1, repository.value());
            delete.setString(2, manifest.toString());
            delete.executeUpdate();
        }
    }

    @Override
    public void releasing(RepositoryName repository, Digest manifest) throws IOException {
        long now = clock.millis();
        db.write(c -> {
            try (PreparedStatement upsert = c.prepareStatement(
                    "INSERT OR REPLACE INTO gc_releases (repository, manifest, at_millis) VALUES (?, ?, ?)")) {
                upsert.setString(1, repository.value());
                upsert.setString(2, manifest.toString());
                upsert.setLong(3, now);
                upsert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<Release> unfinishedReleases(Duration age, int limit) throws IOException {
        long before = clock.millis() - age.toMillis();
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT repository, manifest, at_millis FROM gc_releases WHERE at_millis <= ? ORDER BY at_millis LIMIT ?")) {
                query.setLong(1, before);
                query.setInt(2, limit);
                List<Release> releases = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        releases.add(new Release(RepositoryName.of(rows.getString(1)), Digest.parse(rows.getString(2)), rows.getLong(3)));
                    }
                }
                return releases;
            }
        });
    }

    @Override
    public void finishRelease(Release release) throws IOException {
        long now = clock.millis();
        db.write(c -> {
            if (stillRecorded(c, release)) {
                unreference(c, release.repository(), release.manifest(), now);
            }
            return null;
        });
    }

    @Override
    public void dropRelease(Release release) throws IOException {
        db.write(c -> {
            if (stillRecorded(c, release)) {
                forgetHolder(c, "gc_releases", release.repository(), release.manifest());
            }
            return null;
        });
    }

    private static boolean stillRecorded(Connection c, Release release) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(
                "SELECT 1 FROM gc_releases WHERE repository = ? AND manifest = ? AND at_millis = ?")) {
            query.setString(1, release.repository().value());
            query.setString(2, release.manifest().toString());
            query.setLong(3, release.atMillis());
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    @Override
    public Optional<Long> referencedSince(RepositoryName repository, Digest manifest) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT since_millis FROM gc_holders WHERE repository = ? AND manifest = ?")) {
                query.setString(1, repository.value());
                query.setString(2, manifest.toString());
                try (ResultSet row = query.executeQuery()) {
                    return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public long references(Digest target) throws IOException {
        return db.read(c -> countReferences(c, target));
    }

    @Override
    public List<Digest> candidates(Duration grace, int limit) throws IOException {
        Pages.requireValidLimit(limit);
        long cutoff = clock.millis() - grace.toMillis();
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT digest FROM gc_candidates WHERE since_millis <= ? ORDER BY since_millis, digest LIMIT ?")) {
                query.setLong(1, cutoff);
                query.setInt(2, limit);
                List<Digest> candidates = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        candidates.add(Digest.parse(rows.getString(1)));
                    }
                }
                return candidates;
            }
        });
    }

    @Override
    public boolean nominate(Digest digest, long sinceMillis) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            if (candidateSince(c, digest).isPresent() || countReferences(c, digest) > 0 || markedAt(c, digest).isPresent()) {
                return false;
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO gc_candidates (digest, since_millis) VALUES (?, ?)")) {
                insert.setString(1, digest.toString());
                insert.setLong(2, Math.min(sinceMillis, now));
                insert.executeUpdate();
            }
            return true;
        });
    }

    @Override
    public Optional<Digest> sweptUpTo() throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("SELECT after FROM gc_sweep");
                 ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(Digest.parse(row.getString(1))) : Optional.empty();
            }
        });
    }

    @Override
    public void sweptUpTo(Optional<Digest> digest) throws IOException {
        db.write(c -> {
            try (PreparedStatement clear = c.prepareStatement("DELETE FROM gc_sweep")) {
                clear.executeUpdate();
            }
            if (digest.isPresent()) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO gc_sweep (one, after) VALUES (1, ?)")) {
                    insert.setString(1, digest.get().toString());
                    insert.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    public Optional<Condemnation> condemn(Digest digest, Duration grace) throws IOException {
        long now = clock.millis();
        long cutoff = now - grace.toMillis();
        return db.write(c -> {
            Optional<Long> completeSince = completeSince(c);
            if (completeSince.isEmpty() || completeSince.get() > cutoff || condemnedAt(c, digest, now).isPresent()) {
                return Optional.empty();
            }
            Optional<Long> since = candidateSince(c, digest);
            if (since.isEmpty()) {
                return Optional.empty();
            }
            if (countReferences(c, digest) > 0) {
                execute(c, "DELETE FROM gc_candidates WHERE digest = ?", digest);
                return Optional.empty();
            }
            if (since.get() > cutoff) {
                return Optional.empty();
            }
            try (PreparedStatement mark = c.prepareStatement(
                    "INSERT OR REPLACE INTO gc_condemned (digest, at_millis) VALUES (?, ?)")) {
                mark.setString(1, digest.toString());
                mark.setLong(2, now);
                mark.executeUpdate();
            }
            return Optional.of(new Condemnation(digest, now, linkedIn(c, digest)));
        });
    }

    @Override
    public boolean stillCondemned(Condemnation condemnation) throws IOException {
        long now = clock.millis();
        return db.read(c -> markedAt(c, condemnation.digest()).filter(at -> at == condemnation.atMillis()).isPresent()
                && now - condemnation.atMillis() < CONDEMNATION_LIFETIME.toMillis() / 2);
    }

    @Override
    public void bury(Condemnation condemnation) throws IOException {
        Digest digest = condemnation.digest();
        db.write(c -> {
            if (markedAt(c, digest).filter(at -> at == condemnation.atMillis()).isEmpty()) {
                return null;
            }
            execute(c, "DELETE FROM gc_condemned WHERE digest = ?", digest);
            execute(c, "DELETE FROM gc_candidates WHERE digest = ?", digest);
            execute(c, "DELETE FROM gc_links WHERE digest = ?", digest);
            return null;
        });
    }

    @Override
    public Optional<Long> completeSince() throws IOException {
        return db.read(SqliteGcIndex::completeSince);
    }

    @Override
    public String generation() {
        return GENERATION;
    }

    @Override
    public boolean markComplete(String generation, boolean sinceEver) throws IOException {
        long since = sinceEver ? 0 : clock.millis();
        return db.write(c -> {
            try (PreparedStatement mark = c.prepareStatement(
                    "INSERT OR REPLACE INTO gc_complete (one, since_millis) VALUES (1, ?)")) {
                mark.setLong(1, since);
                mark.executeUpdate();
            }
            return GENERATION.equals(generation);
        });
    }

    private static Optional<Long> completeSince(Connection c) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT since_millis FROM gc_complete");
             ResultSet row = query.executeQuery()) {
            return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
        }
    }

    /** When the digest was condemned, if that mark still holds. */
    private static Optional<Long> condemnedAt(Connection c, Digest digest, long now) throws SQLException {
        return markedAt(c, digest).filter(at -> now - at < CONDEMNATION_LIFETIME.toMillis());
    }

    private static Optional<Long> markedAt(Connection c, Digest digest) throws SQLException {
        return longOf(c, "SELECT at_millis FROM gc_condemned WHERE digest = ?", digest);
    }

    private static Optional<Long> candidateSince(Connection c, Digest digest) throws SQLException {
        return longOf(c, "SELECT since_millis FROM gc_candidates WHERE digest = ?", digest);
    }

    private static long countReferences(Connection c, Digest target) throws SQLException {
        return longOf(c, "SELECT count(*) FROM gc_references WHERE target = ?", target).orElse(0L);
    }

    private static void becameCandidate(Connection c, Digest digest, long now) throws SQLException {
        try (PreparedStatement upsert = c.prepareStatement("""
                INSERT INTO gc_candidates (digest, since_millis) VALUES (?, ?)
                ON CONFLICT (digest) DO UPDATE SET since_millis = max(since_millis, excluded.since_millis)""")) {
            upsert.setString(1, digest.toString());
            upsert.setLong(2, now);
            upsert.executeUpdate();
        }
    }

    private static Set<RepositoryName> linkedIn(Connection c, Digest digest) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT repository FROM gc_links WHERE digest = ?")) {
            query.setString(1, digest.toString());
            Set<RepositoryName> repositories = new LinkedHashSet<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    repositories.add(RepositoryName.of(rows.getString(1)));
                }
            }
            return repositories;
        }
    }

    private static Optional<Long> longOf(Connection c, String sql, Digest digest) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(sql)) {
            query.setString(1, digest.toString());
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
            }
        }
    }

    private static void execute(Connection c, String sql, Digest digest) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setString(1, digest.toString());
            statement.executeUpdate();
        }
    }
}
