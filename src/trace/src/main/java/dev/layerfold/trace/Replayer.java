package dev.layerfold.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Plays a trace against a running registry, at the trace's timing divided by {@code speed}. First
 * the images the trace pulls before any push of them are pushed (rebuilt from the trace, see
 * {@link TraceImages}); then every manifest and blob GET is sent when its time comes, blob uploads and
 * manifest PUTs push (each finished before the requests after it go out, as in the recorded registry),
 * and other requests are skipped. Each trace client sends its own User-Agent
 * ({@code client/<address>}), so the registry tells the trace's clients apart though they all come
 * from here.
 */
public final class Replayer {

    /**
     * @param registry the registry's base URL, e.g. {@code http://localhost:5000}
     * @param speed 1 plays at the trace's timing, 10 ten times as fast
     * @param sizeScale blobs are pushed at this share of the sizes the trace records (at least one byte)
     * @param concurrency most requests in flight at once
     * @param sharedFiles layers are gzip'd tars of text files drawn from a pool shared by every layer, so
     *                    deduplication finds files in common (their sizes as compressed follow the trace's
     *                    roughly); false: incompressible random bytes, which dedup leaves intact
     */
    public record Options(URI registry, double speed, double sizeScale, int concurrency, boolean sharedFiles) {

        public Options(URI registry, double speed, double sizeScale, int concurrency) {
            this(registry, speed, sizeScale, concurrency, false);
        }
    }

    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final String OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");

    private final Options options;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<String, BlobBytes> blobs = new ConcurrentHashMap<>();
    private final Map<String, String> manifests = new ConcurrentHashMap<>();
    private final Set<String> uploaded = ConcurrentHashMap.newKeySet();
    private TraceImages images;
    private boolean prepared;
    private volatile Function<String, String> blobGetClass = digest -> null;

    public Replayer(Options options) {
        this.options = options;
    }

    /**
     * Pushes the images the trace pulls before any push of them, so a caller can let the registry
     * settle (e.g. deduplicate them) before {@link #replay}, which otherwise does it first.
     */
    public void prepare(List<TraceRecord> records) throws IOException, InterruptedException {
        prepared = true;
        images = TraceImages.of(records);
        Set<String> pushedLater = new HashSet<>();
        for (TraceRecord record : records) {
            record.target().filter(t -> t.manifest() && record.method().equalsIgnoreCase("PUT"))
                    .ifPresent(t -> pushedLater.add(t.repository() + " " + t.reference()));
        }
        for (TraceImages.Image image : images.all()) {
            if (!pushedLater.contains(image.repository() + " " + image.reference())) {
                push(image);
            }
        }
    }

    /**
     * Classifies each blob GET just before it is sent, by the blob's digest as the registry knows it:
     * its latency is also recorded under {@code GET blob [class]} (null: no class; a class {@code a/b} is
     * recorded under {@code a} too). Lets a benchmark
     * tell apart, e.g., GETs of layers that had to be rebuilt from those served intact.
     */
    public void classifyBlobGets(Function<String, String> classifier) {
        this.blobGetClass = classifier;
    }

    /** The digests of every blob pushed so far (by {@link #prepare} and by the replay's pushes), with their sizes. */
    public Map<String, Long> pushedSizes() {
        Map<String, Long> sizes = new HashMap<>();
        blobs.values().forEach(blob -> sizes.put(blob.digest(), (long) blob.bytes().length));
        return sizes;
    }

    /**
     * Plays {@code records} at their own timing from now on; may be called again with the records that
     * follow (e.g. an unmeasured warm-up, then the measured part), the images pushed once.
     */
    public ReplayReport replay(List<TraceRecord> records) throws IOException, InterruptedException {
        if (!prepared) {
            prepare(records);
        }
        ReplayReport report = new ReplayReport();
        if (records.isEmpty()) {
            return report;
        }
        Instant first = records.getFirst().timestamp();
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(options.concurrency());
        try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
            for (TraceRecord record : records) {
                long due = start + (long) (Duration.between(first, record.timestamp()).toNanos() / options.speed());
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                report.late((System.nanoTime() - due) / 1_000_000);
                if (!record.isGet()) {
                    // A push is finished before later requests go out, so none of them can find it missing.
                    perform(record, report);
                    continue;
                }
                inFlight.acquire();
                requests.execute(() -> {
                    try {
                        perform(record, report);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        return report;
    }

    private void perform(TraceRecord record, ReplayReport report) {
        Optional<TraceRecord.Target> target = record.target();
        long started = System.nanoTime();
        try {
            if (record.isGet() && target.isPresent() && target.get().manifest()) {
                long received = getManifest(target.get(), record, report);
                report.done("GET manifest", System.nanoTime() - started, received >= 0, Math.max(0, received));
            } else if (record.isGet() && target.isPresent()) {
                BlobBytes blob = blobs.get(target.get().reference());
                if (blob == null) {
                    upload(target.get().repository(), target.get().reference());
                    blob = blobs.get(target.get().reference());
                }
                String kind = blobGetClass.apply(blob.digest());
                long sent = System.nanoTime();
                long received = get("/v2/" + target.get().repository() + "/blobs/" + blob.digest(), record, "*/*", report);
                long nanos = System.nanoTime() - sent;
                report.done("GET blob", nanos, received >= 0, Math.max(0, received));
                if (kind != null) {
                    // "a/b" is recorded under "a" and under "a/b": classes and their subclasses
                    for (int slash = kind.indexOf('/'); slash > 0; slash = kind.indexOf('/', slash + 1)) {
                        report.done("GET blob [" + kind.substring(0, slash) + "]", nanos, received >= 0, Math.max(0, received));
                    }
                    report.done("GET blob [" + kind + "]", nanos, received >= 0, Math.max(0, received));
                }
            } else if (record.method().equalsIgnoreCase("PUT") && target.isPresent() && target.get().manifest()) {
                TraceImages.Image image = images.image(target.get()).orElseThrow();
                push(image);
                report.done("PUT manifest", System.nanoTime() - started, true, 0);
            } else if (record.method().equalsIgnoreCase("PUT") && record.uri().contains("/blobs/uploads/")
                    && record.uri().contains("digest=")) {
                String repository = record.uri().replaceFirst("^/?v2/", "").replaceFirst("/blobs/uploads/.*", "");
                String blob = record.uri().replaceFirst(".*[?&]digest=", "").replaceFirst("&.*", "");
                upload(repository, blob);
                report.done("PUT blob", System.nanoTime() - started, true, 0);
            } else {
                report.skipped();
            }
        } catch (IOException | RuntimeException e) {
            report.done(record.method() + " failed", System.nanoTime() - started, false, 0);
            report.problem(record.method() + " " + record.uri() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long getManifest(TraceRecord.Target target, TraceRecord record, ReplayReport report) throws IOException, InterruptedException {
        String reference = TAG.matcher(target.reference()).matches() ? target.reference()
                : manifests.getOrDefault(target.repository() + " " + target.reference(), target.reference());
        return get("/v2/" + target.repository() + "/manifests/" + reference, record, OCI_MANIFEST, report);
    }

    /** Bytes of the response body, or -1 if the registry did not answer 200. */
    private long get(String path, TraceRecord record, String accept, ReplayReport report) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(options.registry().resolve(path))
                .header("User-Agent", "layerfold-replay client/" + record.remoteAddr().replaceFirst(":\\d+$", ""))
                .header("Accept", accept).build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            long received = body.transferTo(OutputStream.nullOutputStream());
            if (response.statusCode() != 200) {
                report.problem("GET " + path + " (trace: " + record.uri() + ") got " + response.statusCode());
                return -1;
            }
            return received;
        }
    }

    private void push(TraceImages.Image image) throws IOException, InterruptedException {
        StringBuilder layers = new StringBuilder();
        for (String layer : image.layers()) {
            BlobBytes bytes = upload(image.repository(), layer);
            layers.append(layers.isEmpty() ? "" : ",").append(descriptor(OCI_LAYER, bytes));
        }
        BlobBytes config = BlobBytes.text("{\"architecture\":\"amd64\",\"os\":\"linux\",\"image\":\""
                + image.repository() + ":" + image.reference() + "\"}");
        put(image.repository(), config);
        String manifest = "{\"schemaVersion\":2,\"mediaType\":\"" + OCI_MANIFEST + "\",\"config\":"
                + descriptor("application/vnd.oci.image.config.v1+json", config) + ",\"layers\":[" + layers + "]}";
        boolean tag = TAG.matcher(image.reference()).matches();
        String reference = tag ? image.reference() : BlobBytes.text(manifest).digest();
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(options.registry().resolve("/v2/" + image.repository()
                        + "/manifests/" + reference)).header("Content-Type", OCI_MANIFEST)
                .PUT(HttpRequest.BodyPublishers.ofString(manifest)).build(), HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() != 201) {
            throw new IOException("pushing " + image.repository() + ":" + image.reference() + " got " + put.statusCode()
                    + ": " + put.body());
        }
        manifests.put(image.repository() + " " + image.reference(), reference);
    }

    private static String descriptor(String mediaType, BlobBytes blob) {
        return "{\"mediaType\":\"" + mediaType + "\",\"digest\":\"" + blob.digest() + "\",\"size\":" + blob.bytes().length + "}";
    }

    private BlobBytes upload(String repository, String traceBlob) throws IOException, InterruptedException {
        BlobBytes bytes = blobs.computeIfAbsent(traceBlob, blob ->
                options.sharedFiles() ? BlobBytes.layerOfSharedFiles(blob, Math.max(1, Math.round(images.size(blob) * options.sizeScale())))
                        : BlobBytes.of(blob, Math.max(1, Math.round(images.size(blob) * options.sizeScale()))));
        if (uploaded.add(repository + " " + traceBlob)) {
            put(repository, bytes);
        }
        return bytes;
    }

    private void put(String repository, BlobBytes blob) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(options.registry().resolve("/v2/" + repository
                        + "/blobs/uploads/?digest=" + blob.digest())).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(blob.bytes())).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IOException("uploading " + blob.digest() + " to " + repository + " got " + response.statusCode()
                    + ": " + response.body());
        }
    }
}
