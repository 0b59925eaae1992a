package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.util.Objects;

/**
 * A layer an image manifest referenced, waiting to be deduplicated: its digest, and the media type
 * and size its descriptor gave (the worker decides from the media type whether it can split it).
 */
public record LayerTask(Digest layer, String mediaType, long size) {
    public LayerTask {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(mediaType, "mediaType");
    }
}
