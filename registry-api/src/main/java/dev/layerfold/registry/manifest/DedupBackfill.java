package dev.layerfold.registry.manifest;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.DedupQueue;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Queues again, from the manifests themselves, every layer that no dedup outcome is recorded for and
 * whose intact blob is there: layers pushed while dedup was off, and tasks a Redis that restarted from an
 * older snapshot lost (the manifests are in the bucket, the queue is only in Redis). Pages through every
 * repository's manifests; a layer already waiting is not queued twice, and one already done is skipped.
 */
@Component
public class DedupBackfill {

    private static final int PAGE = 500;

    private final MetadataStore metadata;
    private final BlobStore blobs;
    private final StoredManifests storedManifests;
    private final ObjectProvider<DedupQueue> queue;
    private final ObjectProvider<DedupIndex> index;

    DedupBackfill(MetadataStore metadata, BlobStore blobs, StoredManifests storedManifests, ObjectProvider<DedupQueue> queue,
                  ObjectProvider<DedupIndex> index) {
        this.metadata = metadata;
        this.blobs = blobs;
        this.storedManifests = storedManifests;
        this.queue = queue;
        this.index = index;
    }

    /** What a pass found and did. */
    public record Pass(long manifests, long layersQueued) {
    }

    /** Walks every manifest once; with dedup off (no queue here) it queues nothing. */
    public Pass run() throws IOException {
        DedupQueue tasks = queue.getIfAvailable();
        DedupIndex outcomes = index.getIfAvailable();
        if (tasks == null || outcomes == null) {
            return new Pass(0, 0);
        }
        long manifests = 0;
        long queued = 0;
        // Base layers are named by many manifests: each is looked up once per pass.
        Set<Digest> seen = new HashSet<>();
        Optional<RepositoryName> afterRepository = Optional.empty();
        for (List<RepositoryName> repositories; !(repositories = metadata.repositories(afterRepository, PAGE)).isEmpty(); ) {
            for (RepositoryName repository : repositories) {
                Optional<Digest> afterManifest = Optional.empty();
                for (List<ManifestRecord> page; !(page = metadata.manifests(repository, afterManifest, PAGE)).isEmpty(); ) {
                    for (ManifestRecord manifest : page) {
                        manifests++;
                        queued += queueUndone(manifest, tasks, outcomes, seen);
                    }
                    afterManifest = Optional.of(page.getLast().digest());
                }
            }
            afterRepository = Optional.of(repositories.getLast());
        }
        return new Pass(manifests, queued);
    }

    private int queueUndone(ManifestRecord manifest, DedupQueue tasks, DedupIndex outcomes, Set<Digest> seen)
            throws IOException {
        Optional<ParsedManifest> parsed = storedManifests.read(manifest);
        if (parsed.isEmpty()) {
            return 0; // being collected, or not a manifest this registry reads
        }
        int queued = 0;
        for (ParsedManifest.Layer layer : parsed.get().layers()) {
            if (seen.add(layer.digest()) && outcomes.layer(layer.digest()).isEmpty() && blobs.size(layer.digest()).isPresent()) {
                tasks.enqueue(new LayerTask(layer.digest(), layer.mediaType(), layer.size()));
                queued++;
            }
        }
        return queued;
    }
}
