package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.FileLocation;
import dev.layerfold.storage.s3.S3Bucket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the live files of a rewritten pack went, in the bucket, written before Redis switches their
 * locations: layer records keep naming the pack they were written with, so a rebuild of the index from
 * them ({@link DedupIndexRebuild}) follows these to the files' current packs.
 * <pre>
 * metadata/dedup/moves/&lt;alg&gt;/&lt;hex of the old pack&gt;    &lt;file&gt; &lt;pack&gt; &lt;offset&gt; &lt;length&gt; &lt;size&gt;   (a line per moved file)
 * </pre>
 * They are kept: a record written with the old pack may be read by a rebuild at any later time (about
 * 170 bytes per moved file). A pack written again with the same bytes and rewritten again adds its
 * moves to what its object says, since records written before may name files moved the first time.
 */
final class PackMoves {

    private static final String ROOT = "metadata/dedup/moves/";
    /** A pack rewritten again and again is followed this far at most (a cycle would be a bug, not data). */
    private static final int LONGEST_CHAIN = 64;

    private final S3Bucket bucket;

    PackMoves(S3Bucket bucket) {
        this.bucket = bucket;
    }

    private static String key(Digest pack) {
        return ROOT + pack.algorithm().prefix() + "/" + pack.hex();
    }

    /** Adds the moves to the pack's object; returns what it said before, for {@link #restore}. */
    Optional<Map<Digest, FileLocation>> add(Digest from, Map<Digest, FileLocation> moved) throws IOException {
        Optional<Map<Digest, FileLocation>> before = read(from);
        Map<Digest, FileLocation> all = new LinkedHashMap<>(before.orElse(Map.of()));
        all.putAll(moved);
        write(from, all);
        return before;
    }

    /** Puts back what {@link #add} found, after a switch that did not happen. */
    void restore(Digest from, Optional<Map<Digest, FileLocation>> before) throws IOException {
        if (before.isPresent()) {
            write(from, before.get());
        } else {
            bucket.delete(key(from));
        }
    }

    private void write(Digest from, Map<Digest, FileLocation> moved) throws IOException {
        StringBuilder text = new StringBuilder();
        moved.forEach((file, location) -> text.append(file).append(' ').append(location.pack()).append(' ')
                .append(location.offset()).append(' ').append(location.length()).append(' ').append(location.size())
                .append('\n'));
        bucket.put(key(from), text.toString().getBytes(StandardCharsets.UTF_8), Map.of());
    }

    /** The locations with every move since they were written followed; {@code moves} caches what was read. */
    Map<Digest, FileLocation> follow(Map<Digest, FileLocation> files, Map<Digest, Optional<Map<Digest, FileLocation>>> moves)
            throws IOException {
        Map<Digest, FileLocation> current = new LinkedHashMap<>();
        for (Map.Entry<Digest, FileLocation> file : files.entrySet()) {
            FileLocation location = file.getValue();
            for (int hop = 0; hop < LONGEST_CHAIN; hop++) {
                Optional<Map<Digest, FileLocation>> move = moves.get(location.pack());
                if (move == null) {
                    move = read(location.pack());
                    moves.put(location.pack(), move);
                }
                FileLocation next = move.map(m -> m.get(file.getKey())).orElse(null);
                if (next == null) {
                    break;
                }
                location = next;
            }
            current.put(file.getKey(), location);
        }
        return current;
    }

    private Optional<Map<Digest, FileLocation>> read(Digest from) throws IOException {
        return bucket.getSmall(key(from)).map(bytes -> {
            Map<Digest, FileLocation> moved = new LinkedHashMap<>();
            for (String line : bytes.asUtf8String().split("\n")) {
                if (!line.isEmpty()) {
                    String[] fields = line.split(" ");
                    moved.put(Digest.parse(fields[0]), new FileLocation(Digest.parse(fields[1]), Long.parseLong(fields[2]),
                            Long.parseLong(fields[3]), Long.parseLong(fields[4])));
                }
            }
            return moved;
        });
    }
}
