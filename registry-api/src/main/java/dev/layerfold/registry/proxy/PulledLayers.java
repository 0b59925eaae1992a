package dev.layerfold.registry.proxy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import java.io.IOException;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Layers of pulled-through manifests whose bytes are not fetched yet. A pushed manifest's layers are
 * queued for deduplication as it is stored; a pulled-through one's are fetched only when a client asks
 * for them, and a queued layer without bytes would be dropped by the worker, so each is queued when
 * its bytes arrive. Kept in memory, bounded: a layer forgotten here (a restart, an eviction) stays
 * intact until the next pull-through of a manifest naming it queues it.
 */
@Component
public class PulledLayers {

    private static final int MAX_AWAITED = 100_000;
    private static final Duration MAX_WAIT = Duration.ofDays(1);

    private final ObjectProvider<DedupQueue> queue;
    private final Cache<Digest, LayerTask> awaited = Caffeine.newBuilder().maximumSize(MAX_AWAITED)
            .expireAfterWrite(MAX_WAIT).build();

    /** @param queue absent when dedup is off */
    public PulledLayers(ObjectProvider<DedupQueue> queue) {
        this.queue = queue;
    }

    public void awaiting(LayerTask layer) {
        if (queue.getIfAvailable() != null) {
            awaited.put(layer.layer(), layer);
        }
    }

    /** The blob was fetched and published: queue it for deduplication if a manifest named it a layer. */
    public void arrived(Digest blob) throws IOException {
        LayerTask layer = awaited.getIfPresent(blob);
        DedupQueue dedup = queue.getIfAvailable();
        if (layer != null && dedup != null) {
            dedup.enqueue(layer);
            awaited.invalidate(blob);
        }
    }
}
