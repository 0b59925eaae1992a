package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import java.util.Map;
import java.util.Objects;

/**
 * An OCI content descriptor as the referrers API returns it. {@code artifactType} may be null;
 * annotations are never null.
 */
public record Descriptor(String mediaType, Digest digest, long size, String artifactType, Map<String, String> annotations) {
    public Descriptor {
        Objects.requireNonNull(mediaType, "mediaType");
        Objects.requireNonNull(digest, "digest");
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
