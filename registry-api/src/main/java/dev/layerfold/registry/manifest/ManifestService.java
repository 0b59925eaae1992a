package dev.layerfold.registry.manifest;

import dev.layerfold.registry.api.PushListener;
import dev.layerfold.registry.api.StoredBytes;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.gc.CollectorFence;
import dev.layerfold.registry.proxy.PulledLayers;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.dedup.LayerTask;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.metadata.Descriptor;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.usage.RepositoryUsage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Manifests of a repository. Their bytes are stored as blobs, exactly as pushed, so a pull returns
 * the same bytes and digest; the repository index records each with the media type it was pushed as.
 */
@Service
class ManifestService {

    /** The outcome of a push: where the manifest is, and the subject it refers to, if any. */
    record Pushed(Digest digest, Optional<Digest> subject, String mediaType, long size) {
    }

    private final BlobStore blobs;
    private final BlobContent content;
    private final MetadataStore metadata;
    private final ManifestParser parser;
    private final GcIndex gc;
    private final CollectorFence fence;
    private final ObjectProvider<PushListener> pushes;
    private final ObjectProvider<RepositoryUsage> usage;
    private final PulledLayers pulledLayers;

    /**
     * @param pushes told of every layer and manifest stored (deduplication, the predictor's map), in order
     * @param usage the per-repository accounting; absent in a test registry that keeps none
     */
    ManifestService(BlobStore blobs, BlobContent content, MetadataStore metadata, ManifestParser parser,
                    GcIndex gc, CollectorFence fence, ObjectProvider<PushListener> pushes,
                    ObjectProvider<RepositoryUsage> usage, PulledLayers pulledLayers) {
        this.blobs = blobs;
        this.content = content;
        this.metadata = metadata;
        this.parser = parser;
        this.gc = gc;
        this.fence = fence;
        this.pushes = pushes;
        this.usage = usage;
        this.pulledLayers = pulledLayers;
    }

    /**
     * Validates and stores a manifest, then tags it with the reference (if a tag) and
     * {@code extraTags}. Only after every blob and child manifest it references is known to the
     * repository; nothing is changed when it is refused.
     */
    Pushed put(RepositoryName repository, Reference reference, Optional<String> contentType, byte[] bytes,
               List<String> extraTags) throws IOException {
        ParsedManifest manifest = parser.parse(bytes, contentType);
        Digest digest = switch (reference) {
            case Reference.ByDigest(Digest expected) -> {
                Digest actual = Digest.of(expected.algorithm(), bytes);
                if (!actual.equals(expected)) {
                    throw RegistryException.of(ErrorCode.DIGEST_INVALID, "the manifest's digest is " + actual
                                    + ", not " + expected + " as the URL says; push it by tag or by its actual digest",
                            Map.of("expected", expected.toString(), "actual", actual.toString()));
                }
                yield expected;
            }
            case Reference.Tag tag -> Digest.sha256(bytes);
        };
        requireReferencedContent(repository, manifest);
        LinkedHashSet<String> tags = new LinkedHashSet<>(extraTags);
        if (reference instanceof Reference.Tag(String tag)) {
            tags.addFirst(tag);
        }
        store(repository, digest, manifest, bytes, true, tags);
        return new Pushed(digest, manifest.subject(), manifest.mediaType(), bytes.length);
    }

    /**
     * Stores a manifest fetched from a pull-through upstream, verified against {@code digest} by the
     * caller, as a push would, except that what it references need not be here yet: its blobs and child
     * manifests are fetched when a client asks for them. They are referenced from now on all the same,
     * so the collector keeps them once they arrive; its layers are queued for deduplication as their
     * bytes arrive ({@link PulledLayers}).
     */
    ManifestRecord storePulledThrough(RepositoryName repository, Digest digest, Optional<String> contentType, byte[] bytes,
                                      Optional<String> tag) throws IOException {
        ParsedManifest manifest = parser.parse(bytes, contentType);
        store(repository, digest, manifest, bytes, false, tag.map(Set::of).orElse(Set.of()));
        return new ManifestRecord(digest, manifest.mediaType(), bytes.length);
    }

    private void store(RepositoryName repository, Digest digest, ParsedManifest manifest, byte[] bytes,
                       boolean contentHere, Set<String> tags) throws IOException {
        fence.touchBeforePublishing(repository, digest);
        referenceContent(repository, digest, manifest, contentHere);
        account(repository, digest, manifest);

        if (blobs.size(digest).isEmpty()) {
            String uploadId = "manifest-" + UUID.randomUUID();
            blobs.startUpload(uploadId);
            try {
                blobs.append(uploadId, new ByteArrayInputStream(bytes));
                blobs.publish(uploadId, digest);
            } catch (IOException | RuntimeException e) {
                blobs.abortUpload(uploadId);
                throw e;
            }
        }
        tellListeners(repository, digest, manifest, contentHere);
        metadata.linkManifest(repository, new ManifestRecord(digest, manifest.mediaType(), bytes.length));
        if (manifest.subject().isPresent()) {
            metadata.addReferrer(repository, manifest.subject().get(), new Descriptor(manifest.mediaType(), digest,
                    bytes.length, manifest.artifactType(), manifest.annotations()));
        }
        for (String tag : tags) {
            metadata.putTag(repository, tag, digest);
        }
    }

    /**
     * Records what the manifest references before it is linked, so the collector keeps it from now on,
     * then checks its content again: a collector may have deleted a blob after the first check and
     * before the references, and a blob it is deleting now refuses the reference. Either way the push
     * fails with MANIFEST_BLOB_UNKNOWN and never links a manifest whose bytes are gone.
     */
    private void referenceContent(RepositoryName repository, Digest digest, ParsedManifest manifest, boolean contentHere)
            throws IOException {
        List<Digest> targets = new ArrayList<>(manifest.blobs());
        targets.addAll(manifest.manifests());
        targets.add(digest);
        Set<Digest> condemned = gc.reference(repository, digest, targets);
        if (!condemned.isEmpty()) {
            throw RegistryException.ofAll(condemned.stream().map(gone -> new RegistryException.ApiError(
                    ErrorCode.MANIFEST_BLOB_UNKNOWN, gone + " is being garbage-collected, as nothing referenced it; "
                    + "push it again, then the manifest", Map.of("digest", gone.toString()))).toList());
        }
        if (contentHere) {
            requireReferencedContent(repository, manifest);
        }
    }

    /**
     * Counts the blobs the manifest names (its config and layers, sized as stored) for the repository,
     * with its references: before the link, so a crash in between over-counts, never under-counts.
     */
    private void account(RepositoryName repository, Digest digest, ParsedManifest manifest) throws IOException {
        RepositoryUsage accounting = usage.getIfAvailable();
        if (accounting == null) {
            return;
        }
        Map<Digest, Long> sized = new LinkedHashMap<>();
        for (Digest blob : manifest.blobs()) {
            if (!sized.containsKey(blob)) {
                content.size(blob).ifPresent(size -> sized.put(blob, size));
            }
        }
        accounting.referenced(repository, digest, sized);
    }

    /**
     * Tells the push listeners before the manifest is linked: once a client is told its push succeeded,
     * what they record (layers queued for deduplication, the image in the predictor's map) is there, and
     * a crash in between leaves at worst a queued layer that no manifest links (deduplicating it is
     * harmless). A pulled-through manifest's layers not fetched yet are told when their bytes arrive.
     */
    private void tellListeners(RepositoryName repository, Digest digest, ParsedManifest manifest, boolean contentHere)
            throws IOException {
        List<LayerTask> here = new ArrayList<>();
        for (ParsedManifest.Layer layer : manifest.layers()) {
            LayerTask task = new LayerTask(layer.digest(), layer.mediaType(), layer.size());
            if (contentHere || content.size(layer.digest()).isPresent()) {
                here.add(task);
            } else {
                pulledLayers.awaiting(task);
            }
        }
        for (PushListener listener : pushes.orderedStream().toList()) {
            if (!here.isEmpty()) {
                listener.layersStored(List.copyOf(here));
            }
            listener.manifestStored(repository, digest, manifest.contents());
        }
    }

    /** The manifest a tag or digest names in the repository, or MANIFEST_UNKNOWN. */
    ManifestRecord resolve(RepositoryName repository, Reference reference) throws IOException {
        Digest digest = switch (reference) {
            case Reference.ByDigest(Digest d) -> d;
            case Reference.Tag(String tag) -> metadata.tag(repository, tag).orElseThrow(() -> unknown(repository, reference));
        };
        return metadata.manifest(repository, digest).orElseThrow(() -> unknown(repository, reference));
    }

    /** The manifest's bytes as pushed, to stream to a client. */
    StoredBytes stored(RepositoryName repository, ManifestRecord manifest) {
        return new StoredBytes() {
            @Override
            public Optional<Path> localFile() throws IOException {
                return blobs.localFile(manifest.digest());
            }

            @Override
            public InputStream open(long offset, long length) throws IOException {
                return blobs.open(manifest.digest(), offset, length)
                        .orElseThrow(() -> unknown(repository, new Reference.ByDigest(manifest.digest())));
            }
        };
    }

    /** The manifest's bytes as pushed, read whole (bounded at push) to look inside. */
    private byte[] content(RepositoryName repository, ManifestRecord manifest) throws IOException {
        try (InputStream in = stored(repository, manifest).open(0, -1)) {
            return in.readAllBytes();
        }
    }

    /**
     * Deleting a tag removes the tag only; deleting a digest removes the manifest from the repository
     * with its tags and its entry in the referrers of its subject.
     */
    void delete(RepositoryName repository, Reference reference) throws IOException {
        switch (reference) {
            case Reference.Tag(String tag) -> {
                if (!metadata.deleteTag(repository, tag)) {
                    throw unknown(repository, reference);
                }
            }
            case Reference.ByDigest(Digest digest) -> {
                ManifestRecord manifest = resolve(repository, reference);
                Optional<Digest> subject = parser.subjectOf(content(repository, manifest));
                // Before the unlink, so that the collector finishes a delete killed before its unreference below.
                gc.releasing(repository, digest);
                metadata.unlinkManifest(repository, digest);
                for (PushListener listener : pushes.orderedStream().toList()) {
                    listener.manifestDeleted(repository, digest);
                }
                if (subject.isPresent()) {
                    metadata.removeReferrer(repository, subject.get(), digest);
                }
                // After the unlink: references outlive links, so a crash in between keeps bytes, never loses them.
                gc.unreference(repository, digest);
                RepositoryUsage accounting = usage.getIfAvailable();
                if (accounting != null) {
                    accounting.unreferenced(repository, digest);
                }
            }
        }
    }

    private void requireReferencedContent(RepositoryName repository, ParsedManifest manifest) throws IOException {
        List<RegistryException.ApiError> missing = new ArrayList<>();
        for (Digest blob : new LinkedHashSet<>(manifest.blobs())) {
            if (!metadata.hasBlob(repository, blob) || content.size(blob).isEmpty()) {
                missing.add(new RegistryException.ApiError(ErrorCode.MANIFEST_BLOB_UNKNOWN, "blob " + blob
                        + " is not in repository " + repository + "; push (or mount) it before the manifest",
                        Map.of("digest", blob.toString())));
            }
        }
        for (Digest child : new LinkedHashSet<>(manifest.manifests())) {
            if (metadata.manifest(repository, child).isEmpty()) {
                missing.add(new RegistryException.ApiError(ErrorCode.MANIFEST_BLOB_UNKNOWN, "manifest " + child
                        + " is not in repository " + repository + "; push the manifests an index lists before the index",
                        Map.of("digest", child.toString())));
            }
        }
        if (!missing.isEmpty()) {
            throw RegistryException.ofAll(missing);
        }
    }

    private static RegistryException unknown(RepositoryName repository, Reference reference) {
        return RegistryException.of(ErrorCode.MANIFEST_UNKNOWN, "manifest " + reference + " is not in repository "
                + repository, Map.of("reference", reference.toString()));
    }
}
