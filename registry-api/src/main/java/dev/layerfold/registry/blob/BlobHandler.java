package dev.layerfold.registry.blob;

import dev.layerfold.registry.api.PullListener;
import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.registry.api.RegistryRequest;
import dev.layerfold.registry.api.Responses;
import dev.layerfold.registry.api.Route;
import dev.layerfold.registry.api.RouteHandler;
import dev.layerfold.registry.api.StoredBytes;
import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.proxy.Upstreams;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** {@code HEAD|GET|DELETE /v2/<name>/blobs/<digest>}. */
@Component
class BlobHandler implements RouteHandler<Route.Blob> {

    private final RepositoryBlobs blobs;
    private final ObjectProvider<PullListener> pulls;
    private final ObjectProvider<RegistryEventListener> events;
    private final BlobPullThrough pullThrough;

    /**
     * @param pulls       told of every blob pulled (the pull counts, the predictor); none when nothing learns from pulls
     * @param events      told of every blob pulled or deleted; none when nothing is notified
     * @param pullThrough fetches what a proxied repository lacks from its upstream
     */
    BlobHandler(RepositoryBlobs blobs, ObjectProvider<PullListener> pulls, ObjectProvider<RegistryEventListener> events,
                BlobPullThrough pullThrough) {
        this.blobs = blobs;
        this.pulls = pulls;
        this.events = events;
        this.pullThrough = pullThrough;
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
            tell(() -> RegistryEvent.deleted(request, route.name(), "blobs", route.digest()));
            Responses.empty(response, HttpStatus.ACCEPTED);
            return;
        }
        Optional<Long> held = blobs.size(route.name(), route.digest());
        if (held.isEmpty()) {
            Optional<Upstreams.Target> upstream = pullThrough.upstreamOf(route.name());
            if (upstream.isPresent()) {
                if (pullThrough.serve(upstream.get(), route, request.isHead(), response)) {
                    if (!request.isHead()) {
                        pulled(route, request, blobs.size(route.name(), route.digest()).orElse(0L));
                    }
                    return;
                }
                held = blobs.size(route.name(), route.digest());
            }
        }
        long size = held.orElseThrow(() -> unknown(route));
        String etag = "\"" + route.digest() + "\"";
        response.setHeader("Docker-Content-Digest", route.digest().toString());
        response.setHeader("ETag", etag);
        response.setHeader("Accept-Ranges", "bytes");
        boolean notModified = etag.equals(request.header("If-None-Match").orElse(null));
        if (!request.isHead() && !notModified) {
            Optional<URI> direct = blobs.directUrl(route.digest());
            if (direct.isPresent()) {
                pulled(route, request, size);
                // No Cache-Control: the URL expires long before the content would.
                response.setStatus(HttpStatus.TEMPORARY_REDIRECT.value());
                response.setHeader("Location", direct.get().toString());
                return;
            }
        }
        // Content never changes under a digest; clients and proxies may keep it forever.
        response.setHeader("Cache-Control", "max-age=31536000");
        if (notModified) {
            response.setStatus(HttpStatus.NOT_MODIFIED.value());
            return;
        }
        // A Range holds only while the client's copy is still this blob (RFC 9110 §13.1.5); our only
        // validator is the ETag, so a date or another tag in If-Range asks for the whole blob.
        boolean rangeHolds = request.header("If-Range").map(etag::equals).orElse(true);
        ByteRange range;
        try {
            range = ByteRange.parse(rangeHolds ? request.header("Range").orElse(null) : null, size)
                    .orElse(new ByteRange(0, size - 1));
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
            if (range.first() == 0) { // a resumed download is not another pull
                pulled(route, request, size);
            }
            send(route, range, request, response);
        }
    }

    private void pulled(Route.Blob route, RegistryRequest request, long size) {
        pulls.orderedStream().forEach(listener -> listener.blobPulled(request.puller(), route.name(), route.digest()));
        tell(() -> RegistryEvent.blobPulled(request, route.name(), route.digest(), size));
    }

    private void tell(Supplier<RegistryEvent> event) {
        RegistryEventListener.tell(events, event);
    }

    private void send(Route.Blob route, ByteRange range, RegistryRequest request, HttpServletResponse response)
            throws IOException {
        StoredBytes content = new StoredBytes() {
            @Override
            public Optional<Path> localFile() throws IOException {
                return blobs.localFile(route.digest());
            }

            @Override
            public InputStream open(long offset, long length) throws IOException {
                return blobs.open(route.digest(), offset, length).orElseThrow(() -> unknown(route));
            }
        };
        content.send(request, response, range.first(), range.length());
    }

    private static RegistryException unknown(Route.Blob route) {
        return RegistryException.of(ErrorCode.BLOB_UNKNOWN, "blob " + route.digest() + " is not in repository "
                + route.name() + "; push it, or mount it from a repository that has it", Map.of("digest", route.digest().toString()));
    }
}
