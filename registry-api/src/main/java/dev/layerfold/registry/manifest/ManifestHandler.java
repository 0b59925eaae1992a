package dev.layerfold.registry.manifest;

import dev.layerfold.registry.api.MemoryBudget;
import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.metadata.ManifestRecord;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** {@code HEAD|GET|PUT|DELETE /v2/<name>/manifests/<reference>}. */
@Component
class ManifestHandler implements RouteHandler<Route.Manifest> {

    /** Heap bytes a parsed manifest's JSON tree takes per byte of its text: an estimate, see inMemoryCost. */
    private static final int JSON_TREE_PER_BYTE = 4;

    private final ManifestService manifests;
    private final MemoryBudget memory;
    private final int maxManifestSize;
    private final ObjectProvider<PullListener> pulls;
    private final ObjectProvider<RegistryEventListener> events;
    private final ManifestPullThrough pullThrough;

    /**
     * @param pulls       told of every manifest pulled; absent when nothing learns from pulls
     * @param events      told of every push, pull and delete; absent when nothing is notified
     * @param pullThrough fetches what a proxied repository lacks from its upstream
     */
    ManifestHandler(ManifestService manifests, MemoryBudget memory, RegistryApiProperties properties,
                    ObjectProvider<PullListener> pulls, ObjectProvider<RegistryEventListener> events,
                    ManifestPullThrough pullThrough) {
        this.manifests = manifests;
        this.pullThrough = pullThrough;
        this.memory = memory;
        this.pulls = pulls;
        this.events = events;
        this.maxManifestSize = (int) properties.maxManifestSize().toBytes();
    }

    @Override
    public Class<Route.Manifest> routeType() {
        return Route.Manifest.class;
    }

    @Override
    public void handle(Route.Manifest route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD", "PUT", "DELETE");
        Reference reference = Reference.parse(route.reference());
        switch (request.method()) {
            case "PUT" -> {
                List<String> extraTags = request.query().all("tag").stream().map(Reference::requireTag).toList();
                ManifestService.Pushed pushed;
                try (MemoryBudget.Reservation held = memory.reserve(inMemoryCost(request))) {
                    byte[] body = readBounded(request);
                    pushed = manifests.put(route.name(), reference, request.header("Content-Type"), body, extraTags);
                }
                List<String> tags = reference instanceof Reference.Tag(String tag)
                        ? Stream.concat(Stream.of(tag), extraTags.stream()).distinct().toList()
                        : extraTags;
                if (tags.isEmpty()) {
                    tell(() -> RegistryEvent.manifest(RegistryEvent.Action.PUSH, request, route.name(), pushed.digest(),
                            pushed.mediaType(), pushed.size(), Optional.empty()));
                }
                for (String tag : tags) { // an event per tag, as distribution sends for a push by tag
                    tell(() -> RegistryEvent.manifest(RegistryEvent.Action.PUSH, request, route.name(), pushed.digest(),
                            pushed.mediaType(), pushed.size(), Optional.of(tag)));
                }
                Responses.empty(response, HttpStatus.CREATED);
                response.setHeader("Location", "/v2/" + route.name() + "/manifests/" + pushed.digest());
                response.setHeader("Docker-Content-Digest", pushed.digest().toString());
                pushed.subject().ifPresent(subject -> response.setHeader("OCI-Subject", subject.toString()));
                // Tags are applied all or none: reaching here, every ?tag= was accepted, and the spec
                // has the registry confirm each one, so clients know this registry honours the parameter.
                extraTags.forEach(tag -> response.addHeader("OCI-Tag", tag));
            }
            case "DELETE" -> {
                manifests.delete(route.name(), reference);
                tell(() -> switch (reference) {
                    case Reference.Tag(String tag) -> RegistryEvent.tagDeleted(request, route.name(), tag);
                    case Reference.ByDigest(var digest) -> RegistryEvent.deleted(request, route.name(), "manifests", digest);
                });
                Responses.empty(response, HttpStatus.ACCEPTED);
            }
            default -> {
                ManifestRecord manifest = pullThrough.resolve(route.name(), reference);
                if (!AcceptHeader.accepts(request.headers("Accept"), manifest.mediaType())) {
                    throw RegistryException.of(ErrorCode.MANIFEST_UNKNOWN, "manifest " + reference + " is stored as "
                                    + manifest.mediaType() + ", which the Accept header excludes; add it to Accept",
                            Map.of("mediaType", manifest.mediaType()));
                }
                response.setHeader("Docker-Content-Digest", manifest.digest().toString());
                response.setHeader("ETag", "\"" + manifest.digest() + "\"");
                response.setStatus(HttpStatus.OK.value());
                response.setContentType(manifest.mediaType());
                response.setContentLengthLong(manifest.size());
                if (!request.isHead()) {
                    // Told before the body goes out: the client asks for layers right after it.
                    pulls.orderedStream().forEach(listener -> listener.manifestPulled(request.puller(), route.name(), manifest.digest()));
                    tell(() -> RegistryEvent.manifest(RegistryEvent.Action.PULL, request, route.name(), manifest.digest(),
                            manifest.mediaType(), manifest.size(),
                            reference instanceof Reference.Tag(String tag) ? Optional.of(tag) : Optional.empty()));
                    manifests.stored(route.name(), manifest).send(request, response, 0, manifest.size());
                }
            }
        }
    }

    private void tell(Supplier<RegistryEvent> event) {
        RegistryEventListener.tell(events, event);
    }

    /**
     * What a manifest push holds in memory: its body, the body decoded as text, and the parsed JSON tree.
     * A body of unknown length (chunked) is charged as the largest allowed.
     */
    private long inMemoryCost(RegistryRequest request) {
        long body = Math.min(request.contentLength().orElse(maxManifestSize), maxManifestSize);
        return body * (2 + JSON_TREE_PER_BYTE);
    }

    /** The manifest body, refused with 413 beyond the configured limit without reading it all. */
    private byte[] readBounded(RegistryRequest request) throws IOException {
        if (request.contentLength().orElse(0) > maxManifestSize) {
            throw tooLarge(request.contentLength().getAsLong());
        }
        try (InputStream body = request.body()) {
            byte[] bytes = body.readNBytes(maxManifestSize + 1);
            if (bytes.length > maxManifestSize) {
                throw tooLarge(bytes.length);
            }
            return bytes;
        }
    }

    private RegistryException tooLarge(long size) {
        return RegistryException.of(ErrorCode.SIZE_INVALID, "the manifest (" + (size > maxManifestSize + 1 ? size : "over "
                        + maxManifestSize) + " bytes) is larger than the " + maxManifestSize
                        + " bytes this registry accepts (layerfold.api.max-manifest-size)",
                Map.of("limit", maxManifestSize)).withStatus(HttpStatus.PAYLOAD_TOO_LARGE);
    }
}
