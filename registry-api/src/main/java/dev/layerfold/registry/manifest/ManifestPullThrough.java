package dev.layerfold.registry.manifest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.proxy.Upstream;
import dev.layerfold.registry.proxy.UpstreamException;
import dev.layerfold.registry.proxy.Upstreams;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.InvalidDigestException;
import dev.layerfold.storage.RepositoryName;
import dev.layerfold.storage.metadata.ManifestRecord;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Manifests of pulled-through repositories. A digest not held is fetched, checked against itself and
 * stored; a tag is served from the cache while it was confirmed with the upstream less than its TTL
 * ago, else a HEAD to the upstream tells whether it moved (fetching the manifest it now names, if that
 * is not here). When the upstream cannot be asked, a tag held is served as it was, and the failure
 * counted; a tag never seen gets UNAVAILABLE (or 429 when the upstream is rate-limiting us).
 */
@Component
class ManifestPullThrough {

    private static final Logger LOG = LoggerFactory.getLogger(ManifestPullThrough.class);
    /** Every format this registry stores: the upstream then sends its own choice (an index for a multi-platform tag). */
    private static final List<String> ACCEPT = List.of(ManifestMediaTypes.OCI_INDEX, ManifestMediaTypes.DOCKER_MANIFEST_LIST,
            ManifestMediaTypes.OCI_MANIFEST, ManifestMediaTypes.DOCKER_MANIFEST);
    /** Heap a fetched manifest takes per byte: its bytes, their text and the parsed tree (as a push, see ManifestHandler). */
    private static final int HEAP_PER_BYTE = 6;
    private static final int MAX_TAGS_REMEMBERED = 100_000;

    private final Upstreams upstreams;
    private final ManifestService manifests;
    private final MetadataStore metadata;
    private final MemoryBudget memory;
    private final int maxManifestSize;
    private final Clock clock;
    /** When each tag ({@code repository:tag}) was last confirmed with its upstream, in this process. */
    private final Cache<String, Instant> confirmed = Caffeine.newBuilder().maximumSize(MAX_TAGS_REMEMBERED).build();

    @Autowired
    ManifestPullThrough(Upstreams upstreams, ManifestService manifests, MetadataStore metadata, MemoryBudget memory,
                        RegistryApiProperties properties) {
        this(upstreams, manifests, metadata, memory, properties, Clock.systemUTC());
    }

    ManifestPullThrough(Upstreams upstreams, ManifestService manifests, MetadataStore metadata, MemoryBudget memory,
                        RegistryApiProperties properties, Clock clock) {
        this.upstreams = upstreams;
        this.manifests = manifests;
        this.metadata = metadata;
        this.memory = memory;
        this.maxManifestSize = (int) properties.maxManifestSize().toBytes();
        this.clock = clock;
    }

    /** The manifest the reference names, from the upstream of the repository if it is pulled through. */
    ManifestRecord resolve(RepositoryName repository, Reference reference) throws IOException {
        Optional<Upstreams.Target> target = upstreams.any() ? upstreams.route(repository) : Optional.empty();
        if (target.isEmpty()) {
            return manifests.resolve(repository, reference);
        }
        return switch (reference) {
            case Reference.ByDigest(Digest digest) -> {
                Optional<ManifestRecord> held = metadata.manifest(repository, digest);
                if (held.isPresent()) {
                    yield held.get();
                }
                try {
                    yield fetch(target.get(), repository, digest, Optional.empty())
                            .orElseThrow(() -> unknown(target.get(), repository, reference));
                } catch (UpstreamException e) {
                    throw e.toRegistryError("manifest " + digest + " of " + repository);
                }
            }
            case Reference.Tag(String tag) -> resolveTag(target.get(), repository, tag);
        };
    }

    private ManifestRecord resolveTag(Upstreams.Target target, RepositoryName repository, String tag) throws IOException {
        Upstream upstream = target.upstream();
        String key = repository + ":" + tag;
        Optional<Digest> held = metadata.tag(repository, tag);
        Instant last = confirmed.getIfPresent(key);
        Instant now = clock.instant();
        if (held.isPresent() && last != null && now.isBefore(last.plus(upstream.tagTtl()))) {
            return manifests.resolve(repository, new Reference.Tag(tag));
        }
        try {
            Optional<Digest> current = upstreamDigest(target, tag);
            if (current.isEmpty()) {
                if (held.isPresent()) {
                    // Gone upstream (or pushed here only): the copy here stays until someone deletes it.
                    confirmed.put(key, now);
                    return manifests.resolve(repository, new Reference.Tag(tag));
                }
                throw unknown(target, repository, new Reference.Tag(tag));
            }
            Digest digest = current.get();
            Optional<ManifestRecord> local = metadata.manifest(repository, digest);
            ManifestRecord record;
            if (local.isPresent()) {
                if (!held.equals(current)) {
                    metadata.putTag(repository, tag, digest);
                }
                record = local.get();
            } else {
                record = fetch(target, repository, digest, Optional.of(tag))
                        .orElseThrow(() -> unknown(target, repository, new Reference.Tag(tag)));
            }
            confirmed.put(key, now);
            return record;
        } catch (UpstreamException e) {
            if (held.isPresent()) {
                upstream.staleServed();
                LOG.warn("serving {} as cached: {}", key, e.getMessage());
                return manifests.resolve(repository, new Reference.Tag(tag));
            }
            throw e.toRegistryError("tag " + tag + " of " + repository);
        }
    }

    /** What the tag names at the upstream, by a HEAD; empty if the upstream has no such tag. */
    Optional<Digest> upstreamDigest(Upstreams.Target target, String tag) throws IOException {
        Upstream upstream = target.upstream();
        try (Upstream.Response answer = upstream.send("HEAD", target.repository(), "manifests/" + tag, "manifest", ACCEPT)) {
            if (answer.status() == 404) {
                return Optional.empty();
            }
            Optional<String> digest = answer.header("Docker-Content-Digest");
            if (digest.isPresent()) {
                try {
                    return Optional.of(Digest.parse(digest.get().trim()));
                } catch (InvalidDigestException e) {
                    throw upstream.failure(UpstreamException.Reason.STATUS, "sent an invalid Docker-Content-Digest for "
                            + target.repository() + ":" + tag);
                }
            }
        }
        // No digest in the HEAD (allowed to registries): the manifest itself says which it is.
        return fetchByTag(target, tag);
    }

    private Optional<Digest> fetchByTag(Upstreams.Target target, String tag) throws IOException {
        try (MemoryBudget.Reservation reserved = memory.reserve((long) maxManifestSize * HEAP_PER_BYTE);
             Upstream.Response answer = target.upstream().send("GET", target.repository(), "manifests/" + tag, "manifest", ACCEPT)) {
            if (answer.status() == 404) {
                return Optional.empty();
            }
            return Optional.of(Digest.sha256(readBounded(target.upstream(), answer)));
        }
    }

    /**
     * Fetches the manifest {@code digest} from the upstream, checks the bytes against it and stores it
     * (tagged {@code tag}); empty if the upstream does not have it.
     */
    private Optional<ManifestRecord> fetch(Upstreams.Target target, RepositoryName repository, Digest digest,
                                           Optional<String> tag) throws IOException {
        try (MemoryBudget.Reservation reserved = reserveForOne()) {
            Optional<Fetched> fetched = fetchVerified(target, digest);
            if (fetched.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(manifests.storePulledThrough(repository, digest, fetched.get().contentType(),
                    fetched.get().bytes(), tag));
        }
    }

    /** The heap one fetched manifest may take while it is read, parsed and stored; the caller holds it meanwhile. */
    MemoryBudget.Reservation reserveForOne() throws IOException {
        return memory.reserve((long) maxManifestSize * HEAP_PER_BYTE);
    }

    /** A manifest's bytes as the upstream sent them, checked against their digest, and its Content-Type. */
    record Fetched(byte[] bytes, Optional<String> contentType) {
    }

    /**
     * Fetches the manifest {@code digest} and checks the bytes against it, storing nothing; empty if the
     * upstream does not have it. The caller holds a {@link #reserveForOne} reservation.
     */
    Optional<Fetched> fetchVerified(Upstreams.Target target, Digest digest) throws IOException {
        Upstream upstream = target.upstream();
        try (Upstream.Response answer = upstream.send("GET", target.repository(), "manifests/" + digest, "manifest", ACCEPT)) {
            if (answer.status() == 404) {
                return Optional.empty();
            }
            byte[] bytes = readBounded(upstream, answer);
            Digest actual = Digest.of(digest.algorithm(), bytes);
            if (!actual.equals(digest)) {
                throw upstream.failure(UpstreamException.Reason.DIGEST_MISMATCH, "sent a manifest with digest " + actual
                        + " for " + digest + "; it was discarded");
            }
            return Optional.of(new Fetched(bytes, answer.header("Content-Type")));
        }
    }

    /** The body, refused beyond the size limit of a push without reading more than one byte past it. */
    private byte[] readBounded(Upstream upstream, Upstream.Response answer) throws IOException {
        if (answer.contentLength() > maxManifestSize) {
            answer.abort();
            throw upstream.failure(UpstreamException.Reason.TOO_LARGE, "announced a manifest of " + answer.contentLength()
                    + " bytes, over the " + maxManifestSize + " of layerfold.api.max-manifest-size");
        }
        byte[] bytes = answer.body().readNBytes(maxManifestSize + 1);
        if (bytes.length > maxManifestSize) {
            answer.abort();
            throw upstream.failure(UpstreamException.Reason.TOO_LARGE, "sent a manifest over the " + maxManifestSize
                    + " bytes of layerfold.api.max-manifest-size");
        }
        if (answer.contentLength() >= 0 && bytes.length != answer.contentLength()) {
            throw upstream.failure(UpstreamException.Reason.TRUNCATED, "sent " + bytes.length + " of the "
                    + answer.contentLength() + " bytes of a manifest");
        }
        return bytes;
    }

    private static RegistryException unknown(Upstreams.Target target, RepositoryName repository, Reference reference) {
        return RegistryException.of(ErrorCode.MANIFEST_UNKNOWN, "manifest " + reference + " is neither in repository "
                + repository + " nor in " + target.repository() + " at upstream " + target.upstream().name(),
                Map.of("reference", reference.toString()));
    }
}
