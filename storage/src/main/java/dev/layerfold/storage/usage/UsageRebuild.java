package dev.layerfold.storage.usage;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.DedupIndex;
import dev.layerfold.storage.dedup.LayerState;
import dev.layerfold.storage.gc.ManifestTargets;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Recomputes the accounting from the linked manifests (in the bucket, on S3 + Redis), for figures that
 * cannot vouch for themselves: a store older than the accounting, or a Redis that lost them. Pushes
 * and deletes go on meanwhile and record their own changes; a manifest deleted while this runs may be
 * counted until the next rebuild. Pushes start again at one per linked manifest and pulls at zero. A
 * deduplicated layer counts its record as stored: which of its files it was the first to store is
 * known only to the worker that stored them, so after a rebuild the files' bytes are missing from the
 * stored figures (docs/design.md, "Per-repository accounting").
 */
public final class UsageRebuild {

    private static final int PAGE = 500;
    private static final System.Logger LOG = System.getLogger(UsageRebuild.class.getName());

    private final BlobStore blobs;
    private final BlobContent content;
    private final MetadataStore metadata;
    private final ManifestTargets targets;
    private final Optional<DedupIndex> dedup;
    private final RepositoryUsage usage;

    public UsageRebuild(BlobStore blobs, BlobContent content, MetadataStore metadata, ManifestTargets targets,
                        Optional<DedupIndex> dedup, RepositoryUsage usage) {
        this.blobs = blobs;
        this.content = content;
        this.metadata = metadata;
        this.targets = targets;
        this.dedup = dedup;
        this.usage = usage;
    }

    /** Clears the figures, counts every linked manifest again and marks them complete. */
    public void run() throws IOException {
        usage.clear();
        Set<Digest> seen = new HashSet<>();
        Optional<RepositoryName> after = Optional.empty();
        for (List<RepositoryName> page; !(page = metadata.repositories(after, PAGE)).isEmpty(); after = Optional.of(page.getLast())) {
            for (RepositoryName repository : page) {
                countManifestsOf(repository, seen);
            }
        }
        if (dedup.isPresent()) {
            for (Digest blob : seen) {
                if (dedup.get().layer(blob).orElse(null) instanceof LayerState.Deduplicated deduplicated) {
                    usage.stored(blob, deduplicated.recordSize());
                }
            }
        }
        usage.markComplete();
    }

    private void countManifestsOf(RepositoryName repository, Set<Digest> seen) throws IOException {
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
                byte[] read;
                try (InputStream in = bytes.get()) {
                    read = in.readAllBytes();
                }
                Map<Digest, Long> sized = new LinkedHashMap<>();
                for (Digest target : targets.of(read, manifest.mediaType())) {
                    if (sized.containsKey(target) || metadata.manifest(repository, target).isPresent()) {
                        continue; // a manifest an index lists counts its own blobs
                    }
                    Optional<Long> size = content.size(target);
                    if (size.isPresent()) {
                        sized.put(target, size.get());
                    }
                }
                usage.referenced(repository, manifest.digest(), sized);
                seen.addAll(sized.keySet());
            }
        }
    }
}
