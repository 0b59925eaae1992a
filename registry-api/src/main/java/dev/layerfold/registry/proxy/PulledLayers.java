package dev.layerfold.registry.proxy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.layerfold.registry.api.PushListener;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerTask;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Layers of pulled-through manifests whose bytes are not fetched yet. A pushed manifest's layers are
 * told to the {@link PushListener}s as it is stored; a pulled-through one's are fetched only when a
 * client asks for them, and a layer told without bytes would be dropped by the dedup worker, so each
 * is told when its bytes arrive. Kept in memory, bounded: a layer forgotten here (a restart, an
 * eviction) stays intact until the next pull-through of a manifest naming it tells it.
 */
@Component
public class PulledLayers {

    private static final int MAX_AWAITED = 100_000;
    private static final Duration MAX_WAIT = Duration.ofDays(1);

    private final ObjectProvider<PushListener> pushes;
    private final Cache<Digest, LayerTask> awaited = Caffeine.newBuilder().maximumSize(MAX_AWAITED)
            .expireAfterWrite(MAX_WAIT).build();

    public PulledLayers(ObjectProvider<PushListener> pushes) {
        this.pushes = pushes;
    }

    public void awaiting(LayerTask layer) {
        if (pushes.orderedStream().findAny().isPresent()) {
            awaited.put(layer.layer(), layer);
        }
    }

    /** The blob was fetched and published: tell the push listeners if a manifest named it a layer. */
    public void arrived(Digest blob) throws IOException {
        LayerTask layer = awaited.getIfPresent(blob);
        if (layer == null) {
            return;
        }
        for (PushListener listener : pushes.orderedStream().toList()) {
            listener.layersStored(List.of(layer));
        }
        awaited.invalidate(blob);
    }
}
