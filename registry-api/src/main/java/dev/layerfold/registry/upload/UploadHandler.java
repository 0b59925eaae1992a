package dev.layerfold.registry.upload;

import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.storage.Digest;
import dev.layerfold.storage.RepositoryName;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * {@code GET|PATCH|PUT|DELETE /v2/<name>/blobs/uploads/<id>}: upload status, a chunk, closing the
 * upload (with or without a final chunk), cancelling it.
 */
@Component
class UploadHandler implements RouteHandler<Route.Upload> {

    private final UploadService uploads;

    UploadHandler(UploadService uploads) {
        this.uploads = uploads;
    }

    @Override
    public Class<Route.Upload> routeType() {
        return Route.Upload.class;
    }

    @Override
    public void handle(Route.Upload route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "PATCH", "PUT", "DELETE");
        RepositoryName name = route.name();
        String id = route.uploadId();
        switch (request.method()) {
            case "GET" -> sessionHeaders(response, name, id, uploads.size(name, id), HttpStatus.NO_CONTENT);
            case "PATCH" -> {
                Optional<ContentRange> range = contentRange(request, name, id);
                long size = uploads.append(name, id, range, request.body());
                sessionHeaders(response, name, id, size, HttpStatus.ACCEPTED);
            }
            case "PUT" -> {
                List<Digest> digests = request.query().all("digest").stream().map(Digest::parse).toList();
                if (digests.isEmpty()) {
                    throw RegistryException.of(ErrorCode.DIGEST_INVALID, "closing an upload needs the blob's digest:"
                            + " PUT " + location(name, id) + "?digest=sha256:<hex>");
                }
                Optional<InputStream> finalChunk = request.hasBody() ? Optional.of(request.body()) : Optional.empty();
                Digest digest = uploads.complete(name, id, digests, contentRange(request, name, id), finalChunk);
                created(response, name, digest);
            }
            default -> {
                uploads.cancel(name, id);
                Responses.empty(response, HttpStatus.NO_CONTENT);
            }
        }
    }

    private Optional<ContentRange> contentRange(RegistryRequest request, RepositoryName name, String id) throws IOException {
        Optional<String> header = request.header("Content-Range");
        if (header.isEmpty()) {
            return Optional.empty();
        }
        Optional<ContentRange> range = ContentRange.parse(header.get());
        if (range.isEmpty()) {
            throw UploadService.outOfOrder(name, id, uploads.size(name, id), "malformed Content-Range '" + header.get()
                    + "': send <first byte>-<last byte>, inclusive, such as 0-1023");
        }
        return range;
    }

    static void sessionHeaders(HttpServletResponse response, RepositoryName name, String id, long size, HttpStatus status) {
        Responses.empty(response, status);
        response.setHeader("Location", location(name, id));
        response.setHeader("Range", range(size));
        response.setHeader("Docker-Upload-UUID", id);
    }

    static void created(HttpServletResponse response, RepositoryName name, Digest digest) {
        Responses.empty(response, HttpStatus.CREATED);
        response.setHeader("Location", "/v2/" + name + "/blobs/" + digest);
        response.setHeader("Docker-Content-Digest", digest.toString());
    }

    static String location(RepositoryName name, String id) {
        return "/v2/" + name + "/blobs/uploads/" + id;
    }

    /**
     * The bytes received, as the inclusive range clients expect. An empty upload reports {@code 0-0},
     * as the reference registry does; clients go by the size they sent.
     */
    static String range(long size) {
        return "0-" + Math.max(0, size - 1);
    }
}
