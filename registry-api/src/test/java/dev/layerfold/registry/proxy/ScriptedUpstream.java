package dev.layerfold.registry.proxy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream registry over real HTTP whose behaviour each test scripts, for what a well-behaved
 * registry never does: wrong bytes under a digest, a manifest over the size limit, redirects without
 * end, a body that stalls, 429s; and Docker Hub's token sign-in. It serves the distribution API paths
 * the pull-through cache uses (manifest and blob GET and HEAD) under several roots:
 * <ul>
 *   <li>{@code /open}: anonymous;</li>
 *   <li>{@code /signed}: bearer tokens only, obtained from {@code /token} with Basic {@code puller:s3cret},
 *       as Docker Hub's {@code auth.docker.io} hands them out;</li>
 *   <li>{@code /limited}: answers everything with 429 and {@code Retry-After: 120}.</li>
 * </ul>
 */
final class ScriptedUpstream implements AutoCloseable {

    static final String USER = "puller";
    static final String PASSWORD = "s3cret";
    static final String TOKEN = "token-" + System.nanoTime();

    /** What a blob's GET does. */
    enum Behaviour { NORMAL, WRONG_BYTES, STALL_HALFWAY, REDIRECT_LOOP, SLOW }

    record Blob(byte[] bytes, Behaviour behaviour) {
    }

    private final HttpServer server;
    /** {@code <repository>:<tag or digest>} to manifest bytes, and its media type. */
    private final Map<String, byte[]> manifests = new ConcurrentHashMap<>();
    private final Map<String, String> mediaTypes = new ConcurrentHashMap<>();
    private final Map<Digest, Blob> blobs = new ConcurrentHashMap<>();
    /** {@code METHOD path} to how often it was asked. */
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    ScriptedUpstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    URI url(String root) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + root);
    }

    /** Puts a manifest under its digest and, if given, a tag; returns the digest. */
    Digest manifest(String repository, String tag, String mediaType, byte[] bytes) {
        Digest digest = Digest.sha256(bytes);
        manifests.put(repository + ":" + digest, bytes);
        mediaTypes.put(repository + ":" + digest, mediaType);
        if (tag != null) {
            manifests.put(repository + ":" + tag, bytes);
            mediaTypes.put(repository + ":" + tag, mediaType);
        }
        return digest;
    }

    /** Serves {@code bytes} as the manifest {@code claimed}, which is not their digest. */
    void manifestUnderWrongDigest(String repository, Digest claimed, String mediaType, byte[] bytes) {
        manifests.put(repository + ":" + claimed, bytes);
        mediaTypes.put(repository + ":" + claimed, mediaType);
    }

    void removeTag(String repository, String tag) {
        manifests.remove(repository + ":" + tag);
        mediaTypes.remove(repository + ":" + tag);
    }

    Digest blob(byte[] bytes, Behaviour behaviour) {
        Digest digest = Digest.sha256(bytes);
        blobs.put(digest, new Blob(bytes, behaviour));
        return digest;
    }

    int requests(String method, String path) {
        AtomicInteger count = requests.get(method + " " + path);
        return count == null ? 0 : count.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            requests.computeIfAbsent(method + " " + path, key -> new AtomicInteger()).incrementAndGet();
            if (path.equals("/token")) {
                token(exchange);
                return;
            }
            String root = path.substring(1, path.indexOf('/', 1));
            String rest = path.substring(root.length() + 1);
            if (root.equals("limited")) {
                exchange.getResponseHeaders().set("Retry-After", "120");
                empty(exchange, 429);
                return;
            }
            if (!rest.startsWith("/v2/")) {
                empty(exchange, 404);
                return;
            }
            String api = rest.substring("/v2/".length());
            int manifestsAt = api.lastIndexOf("/manifests/");
            int blobsAt = api.lastIndexOf("/blobs/");
            String repository = api.substring(0, Math.max(manifestsAt, blobsAt));
            if (root.equals("signed") && !("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"http://127.0.0.1:"
                        + server.getAddress().getPort() + "/token\",service=\"scripted\",scope=\"repository:" + repository + ":pull\"");
                empty(exchange, 401);
                return;
            }
            if (manifestsAt > 0) {
                String reference = api.substring(manifestsAt + "/manifests/".length());
                byte[] manifest = manifests.get(repository + ":" + reference);
                if (manifest == null) {
                    empty(exchange, 404);
                    return;
                }
                exchange.getResponseHeaders().set("Content-Type", mediaTypes.get(repository + ":" + reference));
                exchange.getResponseHeaders().set("Docker-Content-Digest", Digest.sha256(manifest).toString());
                send(exchange, method, manifest);
                return;
            }
            Digest digest = Digest.parse(api.substring(blobsAt + "/blobs/".length()));
            Blob blob = blobs.get(digest);
            if (blob == null) {
                empty(exchange, 404);
                return;
            }
            blob(exchange, method, path, blob);
        }
    }

    private void blob(HttpExchange exchange, String method, String path, Blob blob) throws IOException {
        switch (blob.behaviour()) {
            case NORMAL -> send(exchange, method, blob.bytes());
            case WRONG_BYTES -> {
                byte[] wrong = blob.bytes().clone();
                wrong[wrong.length / 2] ^= 1;
                send(exchange, method, wrong);
            }
            case REDIRECT_LOOP -> {
                exchange.getResponseHeaders().set("Location", path);
                empty(exchange, 307);
            }
            case STALL_HALFWAY, SLOW -> {
                exchange.sendResponseHeaders(200, method.equals("HEAD") ? -1 : blob.bytes().length);
                if (method.equals("HEAD")) {
                    return;
                }
                OutputStream out = exchange.getResponseBody();
                int half = blob.bytes().length / 2;
                out.write(blob.bytes(), 0, half);
                out.flush();
                sleep(blob.behaviour() == Behaviour.SLOW ? 2_500 : 60_000);
                out.write(blob.bytes(), half, blob.bytes().length - half);
            }
        }
    }

    private void token(HttpExchange exchange) throws IOException {
        String expected = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            empty(exchange, 401);
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        send(exchange, "GET", ("{\"token\":\"" + TOKEN + "\",\"expires_in\":300}").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, String method, byte[] body) throws IOException {
        if (method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
            exchange.sendResponseHeaders(200, -1);
            return;
        }
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    private static void empty(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
