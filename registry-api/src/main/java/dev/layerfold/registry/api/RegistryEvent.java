package dev.layerfold.registry.api;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Something a client did to a repository's content, as the notification envelope of distribution
 * reports it: what was done, to what, and by whom.
 *
 * @param digest    absent for a tag deleted
 * @param mediaType the manifest's media type; {@code application/octet-stream} for a blob; absent for deletes
 * @param size      absent for deletes
 * @param tag       the tag pushed, pulled by, or deleted; absent when the reference was a digest
 * @param path      {@code manifests} or {@code blobs}, for the URL the content is fetched from
 */
public record RegistryEvent(Action action, Instant at, RepositoryName repository, Optional<Digest> digest,
                            Optional<String> mediaType, OptionalLong size, Optional<String> tag, String path,
                            Requester requester) {

    /** The actions of distribution's envelope; {@code mirror} is reserved for content a mirror copied in. */
    public enum Action {
        PUSH, PULL, DELETE, MIRROR;

        /** As the envelope spells it. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The request behind the event.
     *
     * @param address the client's address and port, as the server sees it
     * @param host    the Host header: the registry as the client addressed it
     * @param actor   the signed-in user; empty for anonymous requests
     * @param origin  {@code scheme://host[:port]}, for the content's URL
     * @param localPort the port this process answered on, for the event's source
     */
    public record Requester(String id, String address, String host, String method, String userAgent, String actor,
                            String origin, int localPort) {
    }

    public static Requester requester(RegistryRequest request) {
        String caller = request.access().caller();
        return new Requester(request.id(), request.remoteAddressAndPort(), request.header("Host").orElse(""),
                request.method(), request.header("User-Agent").orElse(""),
                Access.EVERYONE.caller().equals(caller) ? "" : caller, request.origin(), request.localPort());
    }

    public static RegistryEvent manifest(Action action, RegistryRequest request, RepositoryName repository, Digest digest,
                                         String mediaType, long size, Optional<String> tag) {
        return new RegistryEvent(action, Instant.now(), repository, Optional.of(digest), Optional.of(mediaType),
                OptionalLong.of(size), tag, "manifests", requester(request));
    }

    public static RegistryEvent blobPulled(RegistryRequest request, RepositoryName repository, Digest digest, long size) {
        return new RegistryEvent(Action.PULL, Instant.now(), repository, Optional.of(digest),
                Optional.of("application/octet-stream"), OptionalLong.of(size), Optional.empty(), "blobs", requester(request));
    }

    public static RegistryEvent deleted(RegistryRequest request, RepositoryName repository, String path, Digest digest) {
        return new RegistryEvent(Action.DELETE, Instant.now(), repository, Optional.of(digest), Optional.empty(),
                OptionalLong.empty(), Optional.empty(), path, requester(request));
    }

    /**
     * A tag a scheduled mirror copied from an upstream. No client asked: the request is the mirror's
     * own, with no address, and the content's URL is relative (the registry does not know its public origin).
     */
    public static RegistryEvent mirrored(RepositoryName repository, Digest digest, String mediaType, long size, String tag) {
        Requester mirror = new Requester(java.util.UUID.randomUUID().toString(), "", "", "GET", "layerfold-mirror", "", "", 0);
        return new RegistryEvent(Action.MIRROR, Instant.now(), repository, Optional.of(digest), Optional.of(mediaType),
                OptionalLong.of(size), Optional.of(tag), "manifests", mirror);
    }

    public static RegistryEvent tagDeleted(RegistryRequest request, RepositoryName repository, String tag) {
        return new RegistryEvent(Action.DELETE, Instant.now(), repository, Optional.empty(), Optional.empty(),
                OptionalLong.empty(), Optional.of(tag), "manifests", requester(request));
    }
}
