package dev.layerfold.benchmark.predictor;

import dev.layerfold.storage.Digest;
import java.util.LinkedHashMap;
import java.util.Map;

/** The peer: a plain LRU cache of whole layers bounded by bytes, filled on every miss, nothing fetched ahead. */
final class LruLayers {

    private final long capacity;
    private final LinkedHashMap<Digest, Long> layers = new LinkedHashMap<>(16, 0.75f, true);
    private long used;

    LruLayers(long capacity) {
        this.capacity = capacity;
    }

    /** Whether the layer was cached; caches it either way (if it fits at all). */
    boolean get(Digest digest, long size) {
        if (layers.get(digest) != null) {
            return true;
        }
        if (size <= capacity) {
            layers.put(digest, size);
            used += size;
            var oldestFirst = layers.entrySet().iterator();
            while (used > capacity) {
                Map.Entry<Digest, Long> oldest = oldestFirst.next();
                used -= oldest.getValue();
                oldestFirst.remove();
            }
        }
        return false;
    }
}
