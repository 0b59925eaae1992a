package dev.layerfold.storage.metadata;

import dev.layerfold.storage.Digest;
import java.util.Objects;

/** A manifest as a repository knows it: its digest, the media type it was pushed as, and its size. */
public record ManifestRecord(Digest digest, String mediaType, long size) {
    public ManifestRecord {
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(mediaType, "mediaType");
    }
}
