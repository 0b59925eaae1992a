package dev.layerfold.gc;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Records the references of every linked manifest, for an index that cannot vouch for them (a store
 * older than the collector, or Redis that lost them). Pushes and deletes go on meanwhile: they record
 * and remove their own references, and a manifest deleted while this runs may keep references
 * (bytes kept, never lost) until the checker's repair drops them.
 */
final class ReferenceRebuild {

    private static final int PAGE = 500;
    private static final System.Logger LOG = System.getLogger(ReferenceRebuild.class.getName());

    private final BlobStore blobs;
    private final MetadataStore metadata;
    private final GcIndex index;
    private final ManifestTargets targets;

    ReferenceRebuild(BlobStore blobs, MetadataStore metadata, GcIndex index, ManifestTargets targets) {
        this.blobs = blobs;
        this.metadata = metadata;
        this.index = index;
        this.targets = targets;
    }

    /** Rebuilds and marks the index complete; false if the store's generation changed meanwhile. */
    boolean run() throws IOException {
        String generation = index.generation();
        boolean empty = metadata.repositories(Optional.empty(), 1).isEmpty();
        Optional<RepositoryName> after = Optional.empty();
        for (List<RepositoryName> page; !(page = metadata.repositories(after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
            for (RepositoryName repository : page) {
                referenceManifestsOf(repository);
            }
        }
        return index.markComplete(generation, empty);
    }

    private void referenceManifestsOf(RepositoryName repository) throws IOException {
        Optional<Digest> after = Optional.empty();
        for (List<ManifestRecord> page; !(page = metadata.manifests(repository, after, PAGE)).isEmpty();
             after = Optional.of(page.getLast().digest())) {
            for (ManifestRecord manifest : page) {
                Optional<InputStream> bytes = blobs.open(manifest.digest(), 0, -1);
                if (bytes.isEmpty()) {
                    LOG.log(System.Logger.Level.WARNING, "manifest {0} of {1} has no bytes; the checker reports it",
                            manifest.digest(), repository);
                    continue;
                }
                byte[] content;
                try (InputStream in = bytes.get()) {
                    content = in.readAllBytes();
                }
                List<Digest> all = new ArrayList<>(targets.of(content, manifest.mediaType()));
                all.add(manifest.digest());
                index.reference(repository, manifest.digest(), all);
            }
        }
    }
}
