package dev.layerfold.registry.manifest;

import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageContents;
import dev.layerfold.storage.predictor.ImageRef;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Reads back what a stored manifest says, for work that starts from the manifests themselves (the bucket
 * is the system of record) rather than from an index that may have lost entries: the dedup backfill, and
 * the predictor's image map when it has no entry for an image.
 */
@Component
public class StoredManifests {

    private static final Logger LOG = LoggerFactory.getLogger(StoredManifests.class);

    private final MetadataStore metadata;
    private final BlobStore blobs;
    private final ManifestParser parser;

    StoredManifests(MetadataStore metadata, BlobStore blobs, ManifestParser parser) {
        this.metadata = metadata;
        this.blobs = blobs;
        this.parser = parser;
    }

    /**
     * The manifest parsed from its stored bytes; empty if they are gone (being collected) or are not a
     * manifest this registry reads (pushed by an older release that accepted it; logged).
     */
    Optional<ParsedManifest> read(ManifestRecord manifest) throws IOException {
        Optional<InputStream> stored = blobs.open(manifest.digest(), 0, -1);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes;
        try (InputStream in = stored.get()) {
            bytes = in.readAllBytes(); // a manifest, bounded by layerfold.api.max-manifest-size when pushed
        }
        try {
            return Optional.of(parser.parse(bytes, Optional.of(manifest.mediaType())));
        } catch (RegistryException unreadable) {
            LOG.warn("manifest {} is not one this registry reads: {}", manifest.digest(), unreadable.getMessage());
            return Optional.empty();
        }
    }

    /** The layers (or an index's platform manifests) of an image linked in its repository, if it is. */
    public Optional<ImageContents> contents(ImageRef image) throws IOException {
        Optional<ManifestRecord> linked = metadata.manifest(image.repository(), image.manifest());
        return linked.isEmpty() ? Optional.empty() : read(linked.get()).map(ParsedManifest::contents);
    }

    /** Whether the image's manifest is linked in its repository (not deleted). */
    public boolean linked(ImageRef image) throws IOException {
        return metadata.manifest(image.repository(), image.manifest()).isPresent();
    }
}
