package dev.layerfold.registry.upload;

import dev.layerfold.registry.api.QueryParameters;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.InvalidDigestException;
import dev.layerfold.storage.InvalidRepositoryNameException;
import dev.layerfold.storage.RepositoryName;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * {@code POST /v2/<name>/blobs/uploads/}: opens an upload session, takes a whole blob in one request
 * ({@code ?digest=}), or mounts a blob from another repository ({@code ?mount=&from=}) the caller may
 * pull from; otherwise it falls back to an upload session, as the spec asks.
 */
@Component
class UploadStartHandler implements RouteHandler<Route.UploadStart> {

    private static final Digest EMPTY_BLOB = Digest.sha256(new byte[0]);

    private final UploadService uploads;

    UploadStartHandler(UploadService uploads) {
        this.uploads = uploads;
    }

    @Override
    public Class<Route.UploadStart> routeType() {
        return Route.UploadStart.class;
    }

    @Override
    public void handle(Route.UploadStart route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("POST");
        RepositoryName name = route.name();
        QueryParameters query = request.query();
        Optional<Digest> mount = query.first("mount").flatMap(UploadStartHandler::lenientDigest);
        Optional<String> from = query.first("from");
        // A malformed from mounts nothing; a blob the caller may not pull is never mounted.
        if (mount.isPresent() && from.map(UploadStartHandler::isRepositoryName).orElse(true)
                && uploads.mount(name, mount.get(), from.map(RepositoryName::of), request.access()::mayPull)) {
            UploadHandler.created(response, name, mount.get());
            return;
        }
        Optional<Digest> digest = query.first("digest").map(Digest::parse);
        if (digest.isPresent() && (request.hasBody() || digest.get().equals(EMPTY_BLOB))) {
            // Without a body only the empty blob can be meant; otherwise the client gets a session to PUT to.
            UploadHandler.created(response, name, uploads.pushWhole(name, digest.get(), request.body()));
            return;
        }
        // Hashing in the algorithm the blob will be closed with from the first byte lets any process verify
        // it, also on storage that cannot read an unfinished upload back.
        Digest.Algorithm algorithm = query.first("digest-algorithm").map(UploadStartHandler::algorithm)
                .or(() -> digest.map(Digest::algorithm)).orElse(Digest.Algorithm.SHA256);
        String id = uploads.start(name, algorithm);
        UploadHandler.sessionHeaders(response, name, id, 0, HttpStatus.ACCEPTED);
    }

    private static Digest.Algorithm algorithm(String name) {
        for (Digest.Algorithm algorithm : Digest.Algorithm.values()) {
            if (algorithm.prefix().equals(name)) {
                return algorithm;
            }
        }
        throw RegistryException.of(ErrorCode.DIGEST_INVALID, "digest-algorithm=" + name + " is not supported; use sha256 or sha512")
                .withStatus(HttpStatus.BAD_REQUEST);
    }

    /**
     * Mount arguments that do not parse are not an error: the spec asks the registry to fall back to
     * a plain upload session, as registries that do not mount at all would.
     */
    private static Optional<Digest> lenientDigest(String text) {
        try {
            return Optional.of(Digest.parse(text));
        } catch (InvalidDigestException e) {
            return Optional.empty();
        }
    }

    private static boolean isRepositoryName(String text) {
        try {
            RepositoryName.of(text);
            return true;
        } catch (InvalidRepositoryNameException e) {
            return false;
        }
    }
}
