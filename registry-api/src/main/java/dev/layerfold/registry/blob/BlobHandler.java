package dev.layerfold.registry.blob;

import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** {@code HEAD|GET|DELETE /v2/<name>/blobs/<digest>}. */
@Component
class BlobHandler implements RouteHandler<Route.Blob> {

    /** Large copies keep the per-chunk overhead (syscalls, Tomcat buffer handling) small on big layers. */
    private static final int COPY_BUFFER_SIZE = 256 * 1024;

    /**
     * Below this, copying through the JVM answers sooner than handing the file to the connector's poller
     * (Tomcat's DefaultServlet draws the line at 48 KiB too).
     */
    private static final long SENDFILE_THRESHOLD = 48 * 1024;

    private final RepositoryBlobs blobs;

    BlobHandler(RepositoryBlobs blobs) {
        this.blobs = blobs;
    }

    @Override
    public Class<Route.Blob> routeType() {
        return Route.Blob.class;
    }

    @Override
    public void handle(Route.Blob route, RegistryRequest request, HttpServletResponse response) throws IOException {
        request.requireMethod("GET", "HEAD", "DELETE");
        if (request.method().equals("DELETE")) {
            if (!blobs.unlink(route.name(), route.digest())) {
                throw unknown(route);
            }
            Responses.empty(response, HttpStatus.ACCEPTED);
            return;
        }
        long size = blobs.size(route.name(), route.digest()).orElseThrow(() -> unknown(route));
        String etag = "\"" + route.digest() + "\"";
        response.setHeader("Docker-Content-Digest", route.digest().toString());
        response.setHeader("ETag", etag);
        response.setHeader("Accept-Ranges", "bytes");
        // Content never changes under a digest; clients and proxies may keep it forever.
        response.setHeader("Cache-Control", "max-age=31536000");
        if (etag.equals(request.header("If-None-Match").orElse(null))) {
            response.setStatus(HttpStatus.NOT_MODIFIED.value());
            return;
        }
        if (!request.isHead()) {
            Optional<URI> direct = blobs.directUrl(route.digest());
            if (direct.isPresent()) {
                response.setStatus(HttpStatus.TEMPORARY_REDIRECT.value());
                response.setHeader("Location", direct.get().toString());
                return;
            }
        }
        ByteRange range;
        try {
            range = ByteRange.parse(request.header("Range").orElse(null), size).orElse(new ByteRange(0, size - 1));
        } catch (ByteRange.Unsatisfiable e) {
            response.setStatus(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE.value());
            response.setHeader("Content-Range", "bytes */" + size);
            response.setContentLength(0);
            return;
        }
        boolean partial = range.length() != size;
        response.setStatus(partial ? HttpStatus.PARTIAL_CONTENT.value() : HttpStatus.OK.value());
        if (partial) {
            response.setHeader("Content-Range", range.contentRange(size));
        }
        response.setContentType("application/octet-stream");
        response.setContentLengthLong(range.length());
        if (!request.isHead() && range.length() > 0) {
            send(route, range, request, response);
        }
    }

    private void send(Route.Blob route, ByteRange range, RegistryRequest request, HttpServletResponse response)
            throws IOException {
        if (range.length() >= SENDFILE_THRESHOLD && request.canSendFile()) {
            Optional<Path> file = blobs.localFile(route.digest());
            if (file.isPresent()) {
                request.sendFile(file.get(), range.first(), range.last() + 1);
                return;
            }
        }
        stream(route, range, response);
    }

    private void stream(Route.Blob route, ByteRange range, HttpServletResponse response) throws IOException {
        try (InputStream in = blobs.open(route.digest(), range.first(), range.length()).orElseThrow(() -> unknown(route))) {
            OutputStream out = response.getOutputStream();
            // A small blob needs no buffer larger than itself.
            byte[] buffer = new byte[Math.clamp(range.length(), 1, COPY_BUFFER_SIZE)];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
            }
        }
    }

    private static RegistryException unknown(Route.Blob route) {
        return RegistryException.of(ErrorCode.BLOB_UNKNOWN, "blob " + route.digest() + " is not in repository "
                + route.name() + "; push it, or mount it from a repository that has it", Map.of("digest", route.digest().toString()));
    }
}
