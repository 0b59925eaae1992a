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
 * the pull-through cache and the mirror use (manifest and blob GET and HEAD, tag lists in pages of at
 * most {@value #TAG_PAGE}) under several roots:
 * <ul>
 *   <li>{@code /open}: anonymous;</li>
 *   <li>{@code /signed}: bearer tokens only, obtained from {@code /token} with Basic {@code puller:s3cret},
 *       as Docker Hub's {@code auth.docker.io} hands them out;</li>
 *   <li>{@code /limited}: answers everything with 429 and {@code Retry-After: 120}.</li>
 * </ul>
 */
public final class ScriptedUpstream implements AutoCloseable {

    static final int TAG_PAGE = 10;

    static final String USER = "puller";
    static final String PASSWORD = "s3cret";
    static final String TOKEN = "token-" + System.nanoTime();

    /** What a blob's GET does. */
    public enum Behaviour { NORMAL, WRONG_BYTES, STALL_HALFWAY, REDIRECT_LOOP, SLOW }

    record Blob(byte[] bytes, Behaviour behaviour) {
    }

    private final HttpServer server;
    /** {@code <repository>:<tag or digest>} to manifest bytes, and its media type. */
    private final Map<String, byte[]> manifests = new ConcurrentHashMap<>();
    private final Map<String, String> mediaTypes = new ConcurrentHashMap<>();
    private final Map<Digest, Blob> blobs = new ConcurrentHashMap<>();
    /** {@code METHOD path} to how often it was asked. */
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    /** A started upstream, for a test class's static field (its initializer cannot throw IOException). */
    public static ScriptedUpstream started() {
        try {
            return new ScriptedUpstream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public ScriptedUpstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public URI url(String root) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + root);
    }

    /** Puts a manifest under its digest and, if given, a tag; returns the digest. */
    public Digest manifest(String repository, String tag, String mediaType, byte[] bytes) {
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

    public Digest blob(byte[] bytes, Behaviour behaviour) {
        Digest digest = Digest.sha256(bytes);
        blobs.put(digest, new Blob(bytes, behaviour));
        return digest;
    }

    public int requests(String method, String path) {
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
            if (api.equals("_catalog")) {
                empty(exchange, 404); // as Docker Hub, which offers no catalog
                return;
            }
            if (api.endsWith("/tags/list")) {
                tags(exchange, api.substring(0, api.length() - "/tags/list".length()));
                return;
            }
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

    /** A page of the repository's tags, sorted, after {@code last}, with a Link to the next page if there is one. */
    private void tags(HttpExchange exchange, String repository) throws IOException {
        Map<String, String> query = new java.util.HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
            String[] parts = pair.split("=", 2);
            query.put(parts[0], parts.length > 1 ? java.net.URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "");
        }
        int n = Math.min(TAG_PAGE, Integer.parseInt(query.getOrDefault("n", "100")));
        String last = query.get("last");
        java.util.List<String> all = manifests.keySet().stream().filter(key -> key.startsWith(repository + ":"))
                .map(key -> key.substring(repository.length() + 1)).filter(tag -> !tag.startsWith("sha256:"))
                .filter(tag -> last == null || tag.compareTo(last) > 0).sorted().toList();
        if (all.isEmpty() && last == null) {
            empty(exchange, 404);
            return;
        }
        java.util.List<String> page = all.subList(0, Math.min(n, all.size()));
        if (all.size() > n) {
            exchange.getResponseHeaders().set("Link", "</v2/" + repository + "/tags/list?last="
                    + java.net.URLEncoder.encode(page.getLast(), StandardCharsets.UTF_8) + "&n=" + n + ">; rel=\"next\"");
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        StringBuilder body = new StringBuilder("{\"name\":\"" + repository + "\",\"tags\":[");
        for (int i = 0; i < page.size(); i++) {
            body.append(i == 0 ? "" : ",").append('"').append(page.get(i)).append('"');
        }
        send(exchange, "GET", body.append("]}").toString().getBytes(StandardCharsets.UTF_8));
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
