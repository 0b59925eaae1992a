package dev.layerfold.storage.embedded;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupTotals;
import dev.layerfold.storage.dedup.FileClaim;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.dedup.PackCondemnedException;
import dev.layerfold.storage.dedup.PackCopy;
import dev.layerfold.storage.dedup.PackUse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The dedup index in the metadata database. Each method is one write (or read) transaction, which
 * is what makes claims, commits and releases atomic: SQLite has one writer at a time.
 */
final class SqliteDedupIndex implements DedupIndex {

    private static final String LOCATION = "SELECT pack, offset, length, size FROM dedup_files WHERE digest = ?";
    private static final int FILES_PER_QUERY = 500;

    private final SqliteDatabase db;
    private final Clock clock;

    SqliteDedupIndex(SqliteDatabase db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public Optional<FileLocation> file(Digest file) throws IOException {
        return db.read(c -> location(c, file));
    }

    /**
     * One read transaction, {@value #FILES_PER_QUERY} files per statement: a restore looks up every
     * file of its layer, and one statement per file cost a 1 MB layer's restore more than a millisecond.
     */
    @Override
    public Map<Digest, FileLocation> files(Collection<Digest> files) throws IOException {
        List<Digest> asked = List.copyOf(files);
        return db.read(c -> {
            Map<String, FileLocation> located = new HashMap<>();
            for (int from = 0; from < asked.size(); from += FILES_PER_QUERY) {
                List<Digest> some = asked.subList(from, Math.min(asked.size(), from + FILES_PER_QUERY));
                try (PreparedStatement query = c.prepareStatement(
                        "SELECT digest, pack, offset, length, size FROM dedup_files WHERE digest IN (" + "?, ".repeat(some.size() - 1) + "?)")) {
                    for (int i = 0; i < some.size(); i++) {
                        query.setString(i + 1, some.get(i).toString());
                    }
                    try (ResultSet row = query.executeQuery()) {
                        while (row.next()) {
                            located.put(row.getString(1), new FileLocation(Digest.parse(row.getString(2)), row.getLong(3), row.getLong(4), row.getLong(5)));
                        }
                    }
                }
            }
            Map<Digest, FileLocation> found = new LinkedHashMap<>();
            for (Digest file : asked) {
                FileLocation location = located.get(file.toString());
                if (location != null) {
                    found.put(file, location);
                }
            }
            return found;
        });
    }

    @Override
    public Map<Digest, FileClaim> claimFiles(Collection<Digest> files, String worker, Duration ttl) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            Map<Digest, FileClaim> claims = new LinkedHashMap<>();
            try (PreparedStatement locate = c.prepareStatement(LOCATION); PreparedStatement claim = c.prepareStatement("""
                    INSERT INTO dedup_claims (digest, worker, until_millis) VALUES (?, ?, ?)
                    ON CONFLICT (digest) DO UPDATE SET worker = excluded.worker, until_millis = excluded.until_millis
                    WHERE dedup_claims.worker = excluded.worker OR dedup_claims.until_millis <= ?""")) {
                for (Digest file : files) {
                    Optional<FileLocation> stored = location(locate, file);
                    if (stored.isPresent()) {
                        claims.put(file, FileClaim.stored(stored.get()));
                        continue;
                    }
                    claim.setString(1, file.toString());
                    claim.setString(2, worker);
                    claim.setLong(3, now + ttl.toMillis());
                    claim.setLong(4, now);
                    claims.put(file, claim.executeUpdate() == 1 ? FileClaim.CLAIMED : FileClaim.BUSY);
                }
            }
            return claims;
        });
    }

    @Override
    public void packStored(Digest pack, long packSize, Map<Digest, FileLocation> files) throws IOException {
        long now = clock.millis();
        boolean stored = db.write(c -> {
            if (condemned(c, pack, now)) {
                return false;
            }
            update(c, "DELETE FROM dedup_pack_marks WHERE digest = ?", pack.toString());
            update(c, """
                    INSERT INTO dedup_pack_use (digest, generation) VALUES (?, 1)
                    ON CONFLICT (digest) DO UPDATE SET generation = generation + 1""", pack.toString());
            try (PreparedStatement insert = c.prepareStatement("""
                    INSERT INTO dedup_files (digest, pack, offset, length, size, stored_at_millis) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (digest) DO NOTHING""");
                 PreparedStatement unclaim = c.prepareStatement("DELETE FROM dedup_claims WHERE digest = ?");
                 PreparedStatement packed = c.prepareStatement("INSERT OR IGNORE INTO dedup_packs (digest, size) VALUES (?, ?)")) {
                packed.setString(1, pack.toString());
                packed.setLong(2, packSize);
                packed.executeUpdate();
                for (Map.Entry<Digest, FileLocation> file : files.entrySet()) {
                    FileLocation location = file.getValue();
                    insert.setString(1, file.getKey().toString());
                    insert.setString(2, location.pack().toString());
                    insert.setLong(3, location.offset());
                    insert.setLong(4, location.length());
                    insert.setLong(5, location.size());
                    insert.setLong(6, now);
                    insert.executeUpdate();
                    unclaim.setString(1, file.getKey().toString());
                    unclaim.executeUpdate();
                }
            }
            return true;
        });
        if (!stored) {
            throw new PackCondemnedException(pack);
        }
    }

    @Override
    public List<PackUse> sparsePacks(double liveShare, int limit) throws IOException {
        return db.read(c -> {
            List<PackUse> packs = new ArrayList<>();
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT p.digest, p.size, d.dead, d.generation FROM dedup_packs p JOIN dedup_pack_use d ON d.digest = p.digest
                    WHERE p.size - d.dead < ? * p.size ORDER BY p.size - d.dead LIMIT ?""")) {
                query.setDouble(1, liveShare);
                query.setInt(2, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        packs.add(new PackUse(Digest.parse(rows.getString(1)), rows.getLong(2), rows.getLong(3), rows.getLong(4)));
                    }
                }
            }
            return packs;
        });
    }

    @Override
    public boolean relocate(Digest from, long generation, Optional<PackCopy> copy) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            if (!isStoredPack(c, from) || generation(c, from) != generation) {
                return false;
            }
            if (copy.isPresent()) {
                switchTo(c, from, copy.get());
            }
            update(c, "DELETE FROM dedup_packs WHERE digest = ?", from.toString());
            // The generation stays: a worker storing the same bytes again must not bring an old one back.
            update(c, "UPDATE dedup_pack_use SET dead = 0 WHERE digest = ?", from.toString());
            update(c, """
                    INSERT INTO dedup_pack_marks (digest, retired_at_millis) VALUES (?, ?)
                    ON CONFLICT (digest) DO UPDATE SET retired_at_millis = excluded.retired_at_millis""", from.toString(), now);
            return true;
        });
    }

    private static void switchTo(Connection c, Digest from, PackCopy copy) throws SQLException {
        long live = 0;
        try (PreparedStatement move = c.prepareStatement("""
                UPDATE dedup_files SET pack = ?, offset = ?, length = ?, size = ?
                WHERE digest = ? AND pack = ? AND offset = ?""")) {
            for (Map.Entry<Digest, FileLocation> file : copy.locations().entrySet()) {
                FileLocation location = file.getValue();
                move.setString(1, copy.pack().toString());
                move.setLong(2, location.offset());
                move.setLong(3, location.length());
                move.setLong(4, location.size());
                move.setString(5, file.getKey().toString());
                move.setString(6, from.toString());
                move.setLong(7, copy.oldOffsets().get(file.getKey()));
                if (move.executeUpdate() == 1) {
                    live += location.length();
                }
            }
        }
        update(c, "DELETE FROM dedup_pack_marks WHERE digest = ?", copy.pack().toString());
        if (!isStoredPack(c, copy.pack())) {
            update(c, "INSERT INTO dedup_packs (digest, size) VALUES (?, ?)", copy.pack().toString(), copy.size());
            update(c, """
                    INSERT INTO dedup_pack_use (digest, dead, generation) VALUES (?, ?, 1)
                    ON CONFLICT (digest) DO UPDATE SET dead = excluded.dead, generation = generation + 1""",
                    copy.pack().toString(), copy.size() - live);
        }
    }

    private static long generation(Connection c, Digest pack) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT generation FROM dedup_pack_use WHERE digest = ?")) {
            query.setString(1, pack.toString());
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    @Override
    public List<Digest> retiredPacks(long retiredBeforeMillis, int limit) throws IOException {
        return db.read(c -> {
            List<Digest> packs = new ArrayList<>();
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT digest FROM dedup_pack_marks WHERE retired_at_millis < ? ORDER BY retired_at_millis LIMIT ?""")) {
                query.setLong(1, retiredBeforeMillis);
                query.setInt(2, limit);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        packs.add(Digest.parse(rows.getString(1)));
                    }
                }
            }
            return packs;
        });
    }

    @Override
    public boolean condemnPack(Digest pack, long retiredBeforeMillis) throws IOException {
        long now = clock.millis();
        return db.write(c -> {
            if (isStoredPack(c, pack) || condemned(c, pack, now)) {
                return false;
            }
            try (PreparedStatement retired = c.prepareStatement(
                    "SELECT 1 FROM dedup_pack_marks WHERE digest = ? AND retired_at_millis >= ?")) {
                retired.setString(1, pack.toString());
                retired.setLong(2, retiredBeforeMillis);
                try (ResultSet row = retired.executeQuery()) {
                    if (row.next()) {
                        return false;
                    }
                }
            }
            update(c, """
                    INSERT INTO dedup_pack_marks (digest, condemned_at_millis) VALUES (?, ?)
                    ON CONFLICT (digest) DO UPDATE SET condemned_at_millis = excluded.condemned_at_millis""", pack.toString(), now);
            return true;
        });
    }

    @Override
    public void buryPack(Digest pack) throws IOException {
        db.write(c -> update(c, "DELETE FROM dedup_pack_marks WHERE digest = ?", pack.toString())
                + update(c, "DELETE FROM dedup_pack_use WHERE digest = ?", pack.toString()));
    }

    private static boolean isStoredPack(Connection c, Digest pack) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT 1 FROM dedup_packs WHERE digest = ?")) {
            query.setString(1, pack.toString());
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    private static boolean condemned(Connection c, Digest pack, long now) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(
                "SELECT 1 FROM dedup_pack_marks WHERE digest = ? AND condemned_at_millis > ?")) {
            query.setString(1, pack.toString());
            query.setLong(2, now - PACK_CONDEMNATION_LIFETIME.toMillis());
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    private static int update(Connection c, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        }
    }

    @Override
    public Optional<LayerState> layer(Digest layer) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT record, logical_size, record_size, intact_reason FROM dedup_layers WHERE digest = ?")) {
                query.setString(1, layer.toString());
                try (ResultSet row = query.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    String record = row.getString(1);
                    return Optional.of(record != null
                            ? new LayerState.Deduplicated(Digest.parse(record), row.getLong(2), row.getLong(3))
                            : new LayerState.Intact(row.getString(4)));
                }
            }
        });
    }

    @Override
    public void keepIntact(Digest layer, String reason) throws IOException {
        db.write(c -> {
            try (PreparedStatement insert = c.prepareStatement("""
                    INSERT INTO dedup_layers (digest, intact_reason) VALUES (?, ?)
                    ON CONFLICT (digest) DO UPDATE SET intact_reason = excluded.intact_reason WHERE record IS NULL""")) {
                insert.setString(1, layer.toString());
                insert.setString(2, reason);
                insert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public boolean commitLayer(Digest layer, LayerState.Deduplicated state, Collection<Digest> files) throws IOException {
        return db.write(c -> {
            if (isDeduplicated(c, layer)) {
                return true;
            }
            List<Digest> distinct = List.copyOf(new LinkedHashSet<>(files));
            try (PreparedStatement locate = c.prepareStatement(LOCATION)) {
                for (Digest file : distinct) {
                    if (location(locate, file).isEmpty()) {
                        return false;
                    }
                }
            }
            adjustReferences(c, distinct, +1);
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO dedup_layers (digest, record, logical_size, record_size, file_count, intact_reason)
                    VALUES (?, ?, ?, ?, ?, NULL)
                    ON CONFLICT (digest) DO UPDATE SET record = excluded.record, logical_size = excluded.logical_size,
                      record_size = excluded.record_size, file_count = excluded.file_count, intact_reason = NULL""")) {
                upsert.setString(1, layer.toString());
                upsert.setString(2, state.record().toString());
                upsert.setLong(3, state.logicalSize());
                upsert.setLong(4, state.recordSize());
                upsert.setLong(5, distinct.size());
                upsert.executeUpdate();
            }
            return true;
        });
    }

    @Override
    public boolean releaseLayer(Digest layer, Collection<Digest> files) throws IOException {
        return db.write(c -> {
            if (!isDeduplicated(c, layer)) {
                return false;
            }
            adjustReferences(c, List.copyOf(new LinkedHashSet<>(files)), -1);
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM dedup_layers WHERE digest = ?")) {
                delete.setString(1, layer.toString());
                delete.executeUpdate();
            }
            return true;
        });
    }

    @Override
    public long references(Digest file) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement("SELECT refs FROM dedup_files WHERE digest = ?")) {
                query.setString(1, file.toString());
                try (ResultSet row = query.executeQuery()) {
                    return row.next() ? row.getLong(1) : 0L;
                }
            }
        });
    }

    @Override
    public Collection<Digest> forgetUnreferenced(Collection<Digest> files, long storedBeforeMillis) throws IOException {
        return db.write(c -> {
            List<Digest> forgotten = new ArrayList<>();
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM dedup_files WHERE digest = ? AND refs = 0 AND stored_at_millis < ? RETURNING pack, length");
                 PreparedStatement dead = c.prepareStatement("""
                         INSERT INTO dedup_pack_use (digest, dead) VALUES (?, ?)
                         ON CONFLICT (digest) DO UPDATE SET dead = dead + excluded.dead""")) {
                for (Digest file : files) {
                    delete.setString(1, file.toString());
                    delete.setLong(2, storedBeforeMillis);
                    try (ResultSet row = delete.executeQuery()) {
                        if (row.next()) {
                            forgotten.add(file);
                            dead.setString(1, row.getString(1));
                            dead.setLong(2, row.getLong(2));
                            dead.executeUpdate();
                        }
                    }
                }
            }
            return forgotten;
        });
    }

    @Override
    public List<Digest> unreferencedFiles(long storedBeforeMillis, int limit) throws IOException {
        return db.read(c -> {
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT digest FROM dedup_files WHERE refs = 0 AND stored_at_millis < ? ORDER BY stored_at_millis LIMIT ?")) {
                query.setLong(1, storedBeforeMillis);
                query.setInt(2, limit);
                List<Digest> files = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        files.add(Digest.parse(rows.getString(1)));
                    }
                }
                return files;
            }
        });
    }

    @Override
    public DedupTotals totals() throws IOException {
        return db.read(c -> {
            long layers;
            long logical;
            long stored;
            long references;
            try (PreparedStatement query = c.prepareStatement("""
                    SELECT count(*), coalesce(sum(logical_size), 0),
                      coalesce(sum(record_size), 0) + (SELECT coalesce(sum(size), 0) FROM dedup_packs), coalesce(sum(file_count), 0)
                    FROM dedup_layers WHERE record IS NOT NULL""");
                 ResultSet row = query.executeQuery()) {
                row.next();
                layers = row.getLong(1);
                logical = row.getLong(2);
                stored = row.getLong(3);
                references = row.getLong(4);
            }
            Map<String, Long> intact = new TreeMap<>();
            try (PreparedStatement query = c.prepareStatement(
                    "SELECT intact_reason, count(*) FROM dedup_layers WHERE record IS NULL GROUP BY intact_reason");
                 ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    intact.put(rows.getString(1), rows.getLong(2));
                }
            }
            long unique = SqliteDedupQueue.count(c, "SELECT count(*) FROM dedup_files");
            return new DedupTotals(layers, logical, stored, references, unique, intact);
        });
    }

    private static boolean isDeduplicated(Connection c, Digest layer) throws SQLException {
        try (PreparedStatement query = c.prepareStatement("SELECT 1 FROM dedup_layers WHERE digest = ? AND record IS NOT NULL")) {
            query.setString(1, layer.toString());
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    private static void adjustReferences(Connection c, List<Digest> files, int delta) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE dedup_files SET refs = max(0, refs + ?) WHERE digest = ?")) {
            for (Digest file : files) {
                update.setInt(1, delta);
                update.setString(2, file.toString());
                update.executeUpdate();
            }
        }
    }

    private static Optional<FileLocation> location(Connection c, Digest file) throws SQLException {
        try (PreparedStatement query = c.prepareStatement(LOCATION)) {
            return location(query, file);
        }
    }

    private static Optional<FileLocation> location(PreparedStatement query, Digest file) throws SQLException {
        query.setString(1, file.toString());
        try (ResultSet row = query.executeQuery()) {
            return row.next()
                    ? Optional.of(new FileLocation(Digest.parse(row.getString(1)), row.getLong(2), row.getLong(3), row.getLong(4)))
                    : Optional.empty();
        }
    }
}
