package dev.layerfold.registry.manifest;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageContents;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The manifest side of scheduled mirroring: what a tag names at the upstream, a manifest read from
 * here when held or else fetched and verified as the pull-through does, and stored (tagged) once the
 * mirror has fetched what it names. Storing last is what makes a mirror run resumable: a tag moves
 * only after its content is here.
 */
@Component
public class ManifestMirror {

    /**
     * A manifest held or fetched, and what it names.
     *
     * @param fetched whether it came from the upstream in this call (not held here)
     * @param blobs its config and distributable layers (empty for an index)
     * @param children an index's manifests with their platforms ({@code os/arch[/variant]}); empty for an image
     */
    public record Manifest(Digest digest, String mediaType, long size, boolean fetched, List<Digest> blobs,
                           List<ImageContents.PlatformManifest> children, byte[] bytes, Optional<String> contentType) {
    }

    private final ManifestPullThrough pullThrough;
    private final ManifestService manifests;
    private final ManifestParser parser;
    private final StoredManifests stored;
    private final MetadataStore metadata;

    ManifestMirror(ManifestPullThrough pullThrough, ManifestService manifests, ManifestParser parser,
                   StoredManifests stored, MetadataStore metadata) {
        this.pullThrough = pullThrough;
        this.manifests = manifests;
        this.parser = parser;
        this.stored = stored;
        this.metadata = metadata;
    }

    /** What the tag names at the upstream (a HEAD); empty if the upstream has no such tag. */
    public Optional<Digest> upstreamDigest(Upstreams.Target target, String tag) throws IOException {
        return pullThrough.upstreamDigest(target, tag);
    }

    /** The manifest as held in the repository, or else fetched from the upstream and verified; empty if neither has it. */
    public Optional<Manifest> read(Upstreams.Target target, RepositoryName repository, Digest digest) throws IOException {
        try (MemoryBudget.Reservation reserved = pullThrough.reserveForOne()) {
            Optional<ManifestRecord> held = metadata.manifest(repository, digest);
            if (held.isPresent()) {
                Optional<ParsedManifest> parsed = stored.read(held.get());
                if (parsed.isPresent()) {
                    return Optional.of(manifest(digest, parsed.get(), held.get().size(), false, null, Optional.empty()));
                }
            }
            Optional<ManifestPullThrough.Fetched> fetched = pullThrough.fetchVerified(target, digest);
            if (fetched.isEmpty()) {
                return Optional.empty();
            }
            byte[] bytes = fetched.get().bytes();
            ParsedManifest parsed = parser.parse(bytes, fetched.get().contentType());
            return Optional.of(manifest(digest, parsed, bytes.length, true, bytes, fetched.get().contentType()));
        }
    }

    private static Manifest manifest(Digest digest, ParsedManifest parsed, long size, boolean fetched, byte[] bytes,
                                     Optional<String> contentType) {
        List<ImageContents.PlatformManifest> children = parsed.contents() instanceof ImageContents.Index(var platforms)
                ? platforms : List.of();
        return new Manifest(digest, parsed.mediaType(), size, fetched, parsed.blobs(), children, bytes, contentType);
    }

    /**
     * Stores a fetched manifest as a pulled-through one (its blobs are here by now, or for an index's
     * platforms left out, fetched when a client asks), and points the tag at it.
     */
    public void store(RepositoryName repository, Manifest manifest, Optional<String> tag) throws IOException {
        if (manifest.fetched() && metadata.manifest(repository, manifest.digest()).isEmpty()) {
            try (MemoryBudget.Reservation reserved = pullThrough.reserveForOne()) {
                manifests.storePulledThrough(repository, manifest.digest(), manifest.contentType(), manifest.bytes(), tag);
            }
            return;
        }
        if (tag.isPresent() && !metadata.tag(repository, tag.get()).equals(Optional.of(manifest.digest()))) {
            metadata.putTag(repository, tag.get(), manifest.digest());
        }
    }
}
