package dev.layerfold.registry;

import dev.layerfold.registry.api.PushListener;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.predictor.ImageContents;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Everything the API told push listeners, for tests to read back (tests share the context, so by digest). */
public final class RecordedPushes implements PushListener {

    private final List<LayerTask> layers = new CopyOnWriteArrayList<>();
    private final Map<Digest, ImageContents> manifests = new ConcurrentHashMap<>();
    private final List<Digest> deleted = new CopyOnWriteArrayList<>();

    @Override
    public void layersStored(List<LayerTask> stored) {
        layers.addAll(stored);
    }

    @Override
    public void manifestStored(RepositoryName repository, Digest manifest, ImageContents contents) {
        manifests.put(manifest, contents);
    }

    @Override
    public void manifestDeleted(RepositoryName repository, Digest manifest) {
        deleted.add(manifest);
    }

    /** What the manifest was told to contain when it was stored, if it was. */
    public Optional<ImageContents> contents(Digest manifest) {
        return Optional.ofNullable(manifests.get(manifest));
    }

    /** The layer, as told to be stored, if it was. */
    public Optional<LayerTask> layer(Digest layer) {
        return layers.stream().filter(task -> task.layer().equals(layer)).findFirst();
    }

    public boolean deleted(Digest manifest) {
        return deleted.contains(manifest);
    }
}
