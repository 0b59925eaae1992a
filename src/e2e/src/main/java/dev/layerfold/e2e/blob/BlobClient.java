package dev.layerfold.e2e.blob;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Pushes and pulls blobs through the distribution API with {@code java.net.http}, streaming every
 * byte: the same client drives Layerfold and the reference registry, in tests and benchmarks.
 */
public final class BlobClient implements AutoCloseable {

    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private final URI registry;
    private final HttpClient http;
    private final Optional<String> authorization;

    /** A client for the registry at {@code registry} (scheme, host and port). */
    public BlobClient(URI registry) {
        this(registry, Optional.empty());
    }

    /** A client that sends {@code authorization} (such as {@code Bearer <token>}) with every request. */
    public BlobClient(URI registry, Optional<String> authorization) {
        this.registry = registry;
        this.authorization = authorization;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** What a pull received: how many bytes, and their digest as computed while they arrived. */
    public record PulledBlob(long size, String digest) {
    }

    /**
     * Pushes a blob whose digest is known up front: {@code POST} opens an upload, one {@code PUT}
     * carries all {@code size} bytes of {@code content} and closes it.
     */
    public void pushMonolithic(String repository, String digest, long size, InputStream content) throws IOException {
        URI upload = startUpload(repository);
        send(HttpRequest.newBuilder(withDigest(upload, digest))
                .header("Content-Type", "application/octet-stream")
                .PUT(streaming(content, size)), 201);
    }

    /**
     * Pushes {@code size} bytes of {@code content} as {@code PATCH} requests of at most {@code chunkSize}
     * bytes, digesting them on the way, then closes the upload with that digest, which it returns.
     */
    public String pushChunked(String repository, InputStream content, long size, long chunkSize) throws IOException {
        MessageDigest digest = Sha256.newDigest();
        URI upload = patchChunks(repository, new DigestInputStream(content, digest), size, chunkSize);
        String pushed = Sha256.format(digest);
        closeUpload(upload, pushed);
        return pushed;
    }

    /** Like {@link #pushChunked(String, InputStream, long, long)} for bytes whose digest is known up front. */
    public void pushChunked(String repository, String digest, long size, InputStream content, long chunkSize)
            throws IOException {
        closeUpload(patchChunks(repository, content, size, chunkSize), digest);
    }

    private URI patchChunks(String repository, InputStream content, long size, long chunkSize) throws IOException {
        URI upload = startUpload(repository);
        for (long offset = 0; offset < size; ) {
            long length = Math.min(chunkSize, size - offset);
            HttpResponse<InputStream> accepted = send(HttpRequest.newBuilder(upload)
                    .header("Content-Type", "application/octet-stream")
                    .header("Content-Range", offset + "-" + (offset + length - 1))
                    .method("PATCH", streaming(new Slice(content, length), length)), 202);
            upload = location(accepted);
            offset += length;
        }
        return upload;
    }

    private void closeUpload(URI upload, String digest) throws IOException {
        send(HttpRequest.newBuilder(withDigest(upload, digest)).PUT(BodyPublishers.noBody()), 201);
    }

    /** The size a {@code HEAD} of the blob reports, or empty if the repository has no such blob. */
    public OptionalLong size(String repository, String digest) throws IOException {
        HttpRequest head = signed(HttpRequest.newBuilder(blobUri(repository, digest)))
                .method("HEAD", BodyPublishers.noBody()).timeout(REQUEST_TIMEOUT).build();
        HttpResponse<Void> response = exchange(head, BodyHandlers.discarding());
        return switch (response.statusCode()) {
            case 200 -> response.headers().firstValueAsLong("Content-Length");
            case 404 -> OptionalLong.empty();
            default -> throw new IOException("HEAD " + head.uri() + " answered " + response.statusCode());
        };
    }

    /** Pulls a blob, digesting it as it streams in. */
    public PulledBlob pull(String repository, String digest) throws IOException {
        MessageDigest received = Sha256.newDigest();
        long size = readBlob(repository, digest, received);
        return new PulledBlob(size, Sha256.format(received));
    }

    /** Pulls a blob and throws the bytes away (for measuring the registry, not the client's hashing). */
    public long pullDiscarding(String repository, String digest) throws IOException {
        return readBlob(repository, digest, null);
    }

    private long readBlob(String repository, String digest, MessageDigest received) throws IOException {
        HttpRequest request = signed(HttpRequest.newBuilder(blobUri(repository, digest))).GET().timeout(REQUEST_TIMEOUT).build();
        HttpResponse<ReceivedBody> response = exchange(request, ReceivedBody.handler(received));
        if (response.statusCode() != 200) {
            throw unexpected(request, response.statusCode(), 200, response.body().error());
        }
        return response.body().size();
    }

    private URI blobUri(String repository, String digest) {
        return registry.resolve("/v2/" + repository + "/blobs/" + digest);
    }

    private URI startUpload(String repository) throws IOException {
        HttpResponse<InputStream> started = send(HttpRequest.newBuilder(registry.resolve("/v2/" + repository + "/blobs/uploads/"))
                .POST(BodyPublishers.noBody()), 202);
        return location(started);
    }

    private URI location(HttpResponse<?> response) throws IOException {
        String location = response.headers().firstValue("Location").orElseThrow(() -> new IOException(
                response.request().method() + " " + response.uri() + " answered " + response.statusCode()
                        + " without the Location of the upload"));
        return registry.resolve(location);
    }

    private static URI withDigest(URI upload, String digest) {
        String separator = upload.getRawQuery() == null ? "?" : "&";
        return URI.create(upload + separator + "digest=" + URLEncoder.encode(digest, StandardCharsets.UTF_8));
    }

    private static HttpRequest.BodyPublisher streaming(InputStream content, long length) {
        return BodyPublishers.fromPublisher(BodyPublishers.ofInputStream(() -> new Unclosable(content)), length);
    }

    /** Sends a request whose answer matters only by its status and headers. */
    private HttpResponse<InputStream> send(HttpRequest.Builder request, int expectedStatus) throws IOException {
        HttpResponse<InputStream> response = sendForStream(request, expectedStatus);
        try (InputStream body = response.body()) {
            body.transferTo(OutputStream.nullOutputStream()); // drained, the connection is reused
        }
        return response;
    }

    private HttpResponse<InputStream> sendForStream(HttpRequest.Builder request, int expectedStatus) throws IOException {
        HttpRequest built = signed(request).timeout(REQUEST_TIMEOUT).build();
        HttpResponse<InputStream> response = exchange(built, BodyHandlers.ofInputStream());
        if (response.statusCode() != expectedStatus) {
            try (InputStream in = response.body()) {
                throw unexpected(built, response.statusCode(), expectedStatus,
                        new String(in.readNBytes(2000), StandardCharsets.UTF_8));
            }
        }
        return response;
    }

    private HttpRequest.Builder signed(HttpRequest.Builder request) {
        authorization.ifPresent(value -> request.header("Authorization", value));
        return request;
    }

    private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException {
        try {
            return http.send(request, handler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during " + request.method() + " " + request.uri(), e);
        }
    }

    private static IOException unexpected(HttpRequest request, int status, int expectedStatus, String body) {
        return new IOException(request.method() + " " + request.uri() + " answered " + status
                + " (expected " + expectedStatus + "): " + body);
    }

    @Override
    public void close() {
        http.close();
    }

    /** The first {@code length} bytes of a stream that the caller goes on reading afterwards. */
    private static final class Slice extends FilterInputStream {
        private long remaining;

        Slice(InputStream in, long length) {
            super(in);
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int count) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = in.read(buffer, offset, (int) Math.min(count, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }

        @Override
        public void close() {
            // the caller owns the underlying stream
        }
    }

    /** Keeps the HTTP client from closing a stream the caller still owns. */
    private static final class Unclosable extends FilterInputStream {
        Unclosable(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // the caller owns the underlying stream
        }
    }
}
