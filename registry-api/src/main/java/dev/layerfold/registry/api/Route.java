package dev.layerfold.registry.api;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;

/** The endpoints of the distribution API, as {@link RoutePath} recognises them from a request path. */
public sealed interface Route {

    /**
     * The endpoint as a path template, e.g. {@code /v2/{name}/blobs/{digest}}: the {@code uri} tag of
     * the {@code http.server.requests} metric, so operators see blob pulls apart from manifest pushes
     * although one handler method serves every path.
     */
    default String pathPattern() {
        return switch (this) {
            case Base base -> "/v2/";
            case Catalog catalog -> "/v2/_catalog";
            case Blob blob -> "/v2/{name}/blobs/{digest}";
            case UploadStart start -> "/v2/{name}/blobs/uploads/";
            case Upload upload -> "/v2/{name}/blobs/uploads/{id}";
            case Manifest manifest -> "/v2/{name}/manifests/{reference}";
            case TagList tags -> "/v2/{name}/tags/list";
            case Referrers referrers -> "/v2/{name}/referrers/{digest}";
        };
    }

    /** {@code /v2/}: the API version check. */
    record Base() implements Route {
    }

    /** {@code /v2/_catalog}. */
    record Catalog() implements Route {
    }

    /** {@code /v2/<name>/blobs/<digest>}. */
    record Blob(RepositoryName name, Digest digest) implements Route {
    }

    /** {@code /v2/<name>/blobs/uploads/}: starting an upload or mounting a blob. */
    record UploadStart(RepositoryName name) implements Route {
    }

    /** {@code /v2/<name>/blobs/uploads/<id>}: one upload session. The id is unchecked. */
    record Upload(RepositoryName name, String uploadId) implements Route {
    }

    /** {@code /v2/<name>/manifests/<reference>}: the reference (tag or digest) is unchecked. */
    record Manifest(RepositoryName name, String reference) implements Route {
    }

    /** {@code /v2/<name>/tags/list}. */
    record TagList(RepositoryName name) implements Route {
    }

    /** {@code /v2/<name>/referrers/<digest>}. */
    record Referrers(RepositoryName name, Digest subject) implements Route {
    }
}
