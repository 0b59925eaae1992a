package dev.layerfold.storage.redis;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.s3.S3Bucket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The dedup index's system of record: one small object per layer the pipeline decided about, in the
 * bucket beside the metadata records ({@link BucketRecords}), written before Redis is changed.
 * <pre>
 * metadata/dedup/layers/&lt;alg&gt;/&lt;hex&gt;    deduplicated &lt;record&gt; &lt;logical size&gt; &lt;stored bytes&gt; &lt;files&gt;
 *                                        | intact &lt;reason&gt;
 * </pre>
 * A deduplicated layer's files and their locations are in its record blob, so the file index and the
 * reference counts are re-derived from these objects (see {@link DedupIndexRebuild}). Intact layers
 * are recorded too: after Redis lost the index they are neither split again nor missing from the totals.
 * The same text is the layer's value in Redis, where the scripts read the numbers out of it.
 */
final class DedupLayerRecords {

    static final String ROOT = "metadata/dedup/layers/";
    private static final String DEDUPLICATED = "deduplicated ";
    private static final String INTACT = "intact ";

    /** A layer's state and, if deduplicated, how many distinct files it references. */
    record Stored(LayerState state, int files) {
    }

    private final S3Bucket bucket;

    DedupLayerRecords(S3Bucket bucket) {
        this.bucket = bucket;
    }

    static String key(Digest layer) {
        return ROOT + layer.algorithm().prefix() + "/" + layer.hex();
    }

    /** The layer a record key names; empty for keys this layout does not know. */
    static Optional<Digest> layer(String key) {
        if (!key.startsWith(ROOT)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Digest.parse(key.substring(ROOT.length()).replaceFirst("/", ":")));
        } catch (IllegalArgumentException foreignKey) {
            return Optional.empty();
        }
    }

    static String encode(Stored stored) {
        return switch (stored.state()) {
            case LayerState.Deduplicated d -> DEDUPLICATED + d.record() + " " + d.logicalSize() + " " + d.recordSize()
                    + " " + stored.files();
            case LayerState.Intact intact -> INTACT + intact.reason();
        };
    }

    static Stored decode(String encoded) {
        if (encoded.startsWith(INTACT)) {
            return new Stored(new LayerState.Intact(encoded.substring(INTACT.length())), 0);
        }
        if (!encoded.startsWith(DEDUPLICATED)) {
            throw new IllegalArgumentException("not a layer state: " + encoded);
        }
        String[] fields = encoded.substring(DEDUPLICATED.length()).split(" ");
        return new Stored(new LayerState.Deduplicated(Digest.parse(fields[0]), Long.parseLong(fields[1]),
                Long.parseLong(fields[2])), Integer.parseInt(fields[3]));
    }

    void put(Digest layer, Stored stored) throws IOException {
        bucket.put(key(layer), encode(stored).getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Optional<Stored> read(Digest layer) throws IOException {
        return readKey(key(layer));
    }

    Optional<Stored> readKey(String key) throws IOException {
        return bucket.getSmall(key).map(bytes -> decode(bytes.asUtf8String()));
    }

    void delete(Digest layer) throws IOException {
        bucket.delete(key(layer));
    }

    Iterable<S3Object> all() {
        return bucket.list(ROOT);
    }
}
