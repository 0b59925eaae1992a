package dev.layerfold.registry.api;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.predictor.ImageContents;
import java.io.IOException;
import java.util.List;

/**
 * Told about what pushes store, for the features that follow them (deduplication queues layers, the
 * predictor maps images to their layers), as {@link PullListener} is told about pulls. Called on the
 * request's thread before the manifest is linked or tagged, so what a listener records before it
 * returns is there before the client is told the push succeeded; an exception fails the push.
 */
public interface PushListener {

    /**
     * Layers a stored manifest names whose bytes are in the registry now: a push's layers, or a
     * pulled-through manifest's layers as their bytes arrive from the upstream.
     */
    default void layersStored(List<LayerTask> layers) throws IOException {
    }

    /** A manifest stored in the repository (pushed or pulled through), about to be linked. */
    default void manifestStored(RepositoryName repository, Digest manifest, ImageContents contents) throws IOException {
    }

    /** A manifest deleted from the repository by digest (its tags went with it). */
    default void manifestDeleted(RepositoryName repository, Digest manifest) throws IOException {
    }
}
