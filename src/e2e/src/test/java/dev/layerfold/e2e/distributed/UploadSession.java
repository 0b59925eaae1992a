package dev.layerfold.e2e.distributed;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * A chunked blob upload driven one request at a time, so a test chooses which node (or address) gets
 * each request and can ask where the upload stands, as a client resuming after an error does. The
 * upload is known by its path, the same on every node of one storage.
 */
final class UploadSession implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private String location;

    private UploadSession() {
    }

    /** {@code POST /v2/<repository>/blobs/uploads/} to {@code registry}. */
    static UploadSession open(URI registry, String repository) throws IOException {
        UploadSession session = new UploadSession();
        HttpResponse<String> started = session.send(HttpRequest.newBuilder(
                registry.resolve("/v2/" + repository + "/blobs/uploads/")).POST(BodyPublishers.noBody()), 202);
        session.location = session.locationOf(started);
        return session;
    }

    /**
     * Sends the next {@code length} bytes of {@code content} as the bytes from {@code offset} on, leaving
     * the rest of {@code content} for later chunks; returns the upload's size.
     */
    long append(URI registry, long offset, InputStream content, long length) throws IOException {
        InputStream chunk = new Slice(content, length);
        HttpResponse<String> accepted = send(HttpRequest.newBuilder(registry.resolve(location))
                .header("Content-Type", "application/octet-stream")
                .header("Content-Range", offset + "-" + (offset + length - 1))
                .method("PATCH", BodyPublishers.fromPublisher(BodyPublishers.ofInputStream(() -> chunk), length)), 202);
        location = locationOf(accepted);
        return sizeOf(accepted);
    }

    /** How many bytes {@code registry} says the upload holds, or empty if it knows no such upload. */
    OptionalLong size(URI registry) throws IOException {
        HttpRequest status = HttpRequest.newBuilder(registry.resolve(location)).GET().timeout(TIMEOUT).build();
        HttpResponse<String> response = exchange(status);
        return switch (response.statusCode()) {
            case 204 -> OptionalLong.of(sizeOf(response));
            case 404 -> OptionalLong.empty();
            default -> throw new IOException("GET " + status.uri() + " answered " + response.statusCode()
                    + ": " + response.body());
        };
    }

    /** Closes the upload as blob {@code digest}; returns the digest the registry stored it under. */
    String complete(URI registry, String digest) throws IOException {
        URI close = URI.create(registry.resolve(location) + (location.contains("?") ? "&" : "?")
                + "digest=" + URLEncoder.encode(digest, StandardCharsets.UTF_8));
        HttpResponse<String> created = send(HttpRequest.newBuilder(close).PUT(BodyPublishers.noBody()), 201);
        return created.headers().firstValue("Docker-Content-Digest")
                .orElseThrow(() -> new IOException("PUT " + close + " answered 201 without Docker-Content-Digest"));
    }

    /**
     * The size in a {@code Range: 0-<last>} header. An empty upload also reports {@code 0-0} (as the
     * reference registry does); these tests only ask once whole chunks have been acknowledged.
     */
    private static long sizeOf(HttpResponse<?> response) throws IOException {
        String range = response.headers().firstValue("Range").orElseThrow(() -> new IOException(
                response.request().method() + " " + response.uri() + " answered without a Range"));
        return Long.parseLong(range.substring(range.indexOf('-') + 1)) + 1;
    }

    private String locationOf(HttpResponse<?> response) throws IOException {
        return response.headers().firstValue("Location").orElseThrow(() -> new IOException(
                response.request().method() + " " + response.uri() + " answered without a Location"));
    }

    private HttpResponse<String> send(HttpRequest.Builder request, int expectedStatus) throws IOException {
        HttpRequest built = request.timeout(TIMEOUT).build();
        HttpResponse<String> response = exchange(built);
        if (response.statusCode() != expectedStatus) {
            throw new IOException(built.method() + " " + built.uri() + " answered " + response.statusCode()
                    + " (expected " + expectedStatus + "): " + response.body());
        }
        return response;
    }

    private HttpResponse<String> exchange(HttpRequest request) throws IOException {
        try {
            return http.send(request, BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during " + request.method() + " " + request.uri(), e);
        }
    }

    @Override
    public void close() {
        http.close();
    }

    /** The next {@code length} bytes of a stream the caller goes on reading; closing it leaves the stream open. */
    private static final class Slice extends InputStream {

        private final InputStream content;
        private long remaining;

        Slice(InputStream content, long length) {
            this.content = content;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int count) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = content.read(buffer, offset, (int) Math.min(count, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
