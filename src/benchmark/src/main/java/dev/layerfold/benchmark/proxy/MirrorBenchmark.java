package dev.layerfold.benchmark.proxy;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.dedup.IdealStorage;
import dev.layerfold.benchmark.dedup.ImageClient;
import dev.layerfold.benchmark.dedup.LayerMaker;
import dev.layerfold.benchmark.dedup.ProducedLayer;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What mirroring stores (issue 31): successive releases of one distribution's images
 * ({@link DistributionReleases}: a Debian-like base and a language image on it) are pushed one release
 * after the other to an upstream, the CNCF registry; Layerfold mirrors both repositories with mirror rules
 * (its scheduler, over HTTP, dedup {@code all}), and the CNCF registry as a pull-through cache
 * ({@code proxy.remoteurl}) of the same upstream is pulled for the same tags, the blob-level cache of the
 * same content. After 1, 2, 4 and {@link #RELEASES} releases it reports the bytes on disk of both (and of
 * the upstream's own storage) against the ideal of a file-level store ({@link IdealStorage}). At the end
 * every tag is pulled back through Layerfold and checked against its digests, byte for byte.
 */
public final class MirrorBenchmark implements Benchmark {

    private static final String SUITE = "mirror";
    private static final String HEAP = "512m";
    private static final String PREFIX = "hub";
    private static final String BASE_REPOSITORY = "library/debian";
    private static final String LANGUAGE_REPOSITORY = "library/python";
    private static final int RELEASES = 6;
    private static final List<Integer> MEASURED = List.of(1, 2, 4, RELEASES);
    private static final long BASE_SIZE = 48L << 20;
    private static final long LANGUAGE_SIZE = 32L << 20;
    private static final Duration PATIENCE = Duration.ofMinutes(10);
    private static final String MANIFEST_TYPES = "application/vnd.oci.image.manifest.v1+json,"
            + "application/vnd.docker.distribution.manifest.v2+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-mirror-benchmark-");
        try {
            measure(work, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        List<DistributionReleases.Release> releases = DistributionReleases.make(LayerMaker.in(work), work.resolve("variants"), RELEASES,
                BASE_SIZE, LANGUAGE_SIZE);
        releases.forEach(release -> System.out.println("release " + release.tag() + ": " + release.base() + "; " + release.language()));
        Path logs = work.resolve("logs");
        Map<String, Digest> manifests = new LinkedHashMap<>();
        List<ProducedLayer> layers = new ArrayList<>();
        try (RegistryProcess upstream = ReferenceRegistryProcess.start(work.resolve("upstream"), logs);
             RegistryProcess layerfold = LayerfoldProcess.start(HEAP, work.resolve("layerfold"), logs, List.of(), Map.ofEntries(
                     Map.entry("layerfold.proxy.upstreams[0].prefix", PREFIX),
                     Map.entry("layerfold.proxy.upstreams[0].url", upstream.baseUri().toString()),
                     Map.entry("layerfold.mirror.rules[0].upstream", PREFIX),
                     Map.entry("layerfold.mirror.rules[0].repository", BASE_REPOSITORY),
                     Map.entry("layerfold.mirror.rules[0].interval", "1s"),
                     Map.entry("layerfold.mirror.rules[1].upstream", PREFIX),
                     Map.entry("layerfold.mirror.rules[1].repository", LANGUAGE_REPOSITORY),
                     Map.entry("layerfold.mirror.rules[1].interval", "1s"),
                     // What is measured is the dedup mode, not the copies a restore keeps or the predictor's tiers.
                     Map.entry("layerfold.dedup.mode", "all"),
                     Map.entry("layerfold.dedup.keep-restored", "0s"),
                     Map.entry("layerfold.predictor.mode", "off")));
             RegistryProcess reference = ReferenceRegistryProcess.startAsCacheOf(upstream.baseUri(), work.resolve("reference-cache"), logs);
             ImageClient pusher = new ImageClient(upstream.baseUri(), upstream.baseUri());
             ImageClient mirror = new ImageClient(layerfold.baseUri(), layerfold.managementUri())) {
            double failuresBefore = 0;
            for (DistributionReleases.Release release : releases) {
                manifests.put(BASE_REPOSITORY + ":" + release.tag(), pusher.push(BASE_REPOSITORY, release.tag(), List.of(release.base())));
                manifests.put(LANGUAGE_REPOSITORY + ":" + release.tag(),
                        pusher.push(LANGUAGE_REPOSITORY, release.tag(), List.of(release.base(), release.language())));
                layers.add(release.base());
                layers.add(release.language());
                long mirrorStart = System.nanoTime();
                awaitMirrored(mirror, 2 * release.number());
                double mirrorSeconds = (System.nanoTime() - mirrorStart) / 1e9;
                if (release.number() == 1) {
                    // The runs at startup may have come before the first push, and failed: the repositories did not exist yet.
                    failuresBefore = mirror.metric("layerfold_mirror_failures_total");
                }
                mirror.settle(PATIENCE);
                double settledSeconds = (System.nanoTime() - mirrorStart) / 1e9;
                for (String repository : List.of(BASE_REPOSITORY, LANGUAGE_REPOSITORY)) {
                    String image = repository + ":" + release.tag();
                    pull(reference.baseUri(), repository, release.tag(), manifests.get(image), new HashSet<>());
                }
                System.out.printf("%-10s release %s mirrored in %.1f s, deduplicated %.1f s after its push%n", SUITE, release.tag(),
                        mirrorSeconds, settledSeconds);
                if (MEASURED.contains(release.number())) {
                    record(report, release.number(), layers, settledBytes(layerfold.dataDir()), settledBytes(reference.dataDir()),
                            settledBytes(upstream.dataDir()));
                }
            }
            if (mirror.metric("layerfold_mirror_failures_total") != failuresBefore) {
                throw new IllegalStateException("the mirror counted failures; see " + layerfold.log());
            }
            // Every image, pulled back through Layerfold (its deduplicated layers rebuilt), has the upstream's digests;
            // a base layer both images of a release name is rebuilt and checked once.
            long start = System.nanoTime();
            long pulled = 0;
            Set<String> checked = new HashSet<>();
            for (Map.Entry<String, Digest> image : manifests.entrySet()) {
                String[] name = image.getKey().split(":");
                pulled += pull(layerfold.baseUri(), PREFIX + "/" + name[0], name[1], image.getValue(), checked);
            }
            System.out.printf("%-10s all %d images pulled back through Layerfold byte for byte: %.1f MB in %.1f s%n", SUITE,
                    manifests.size(), pulled / 1e6, (System.nanoTime() - start) / 1e9);
        }
    }

    private static void record(BenchmarkReport report, int releases, List<ProducedLayer> layers, long layerfold, long reference,
                               long upstream) throws IOException {
        IdealStorage ideal = IdealStorage.of(layers);
        long blobs = layers.stream().mapToLong(layer -> layer.blob().length).sum();
        System.out.printf("%-10s %d release(s), %d images: layer blobs %.1f MB; on disk: Layerfold %.1f MB, reference cache %.1f MB,"
                        + " upstream %.1f MB; file-level ideal %.1f MB; Layerfold / reference cache %.2f%n", SUITE, releases, 2 * releases,
                blobs / 1e6, layerfold / 1e6, reference / 1e6, upstream / 1e6, ideal.bytes() / 1e6, (double) layerfold / reference);
        String of = releases + " release" + (releases == 1 ? "" : "s");
        report.compare(SUITE, of + ": bytes on disk vs blob-level cache", "MB", new double[] {layerfold / 1e6},
                new double[] {reference / 1e6}, "reference cache", false);
        report.compare(SUITE, of + ": bytes on disk vs file-level ideal", "MB", new double[] {layerfold / 1e6},
                new double[] {ideal.bytes() / 1e6}, "ideal", false);
        report.value(SUITE, of + ": stored / blob-level cache", "%", new double[] {100.0 * layerfold / reference});
    }

    /** Waits until the rules have mirrored {@code tags} tags in all. */
    private static void awaitMirrored(ImageClient mirror, int tags) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (mirror.metric("layerfold_mirror_tags_mirrored_total") < tags) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the mirror rules did not mirror " + tags + " tags within " + PATIENCE);
            }
            Thread.sleep(200);
        }
    }

    /**
     * The bytes under {@code dir} once they stopped growing: the reference cache commits a blob after it
     * sent the last byte, and Layerfold may still be deleting the intact copy of a layer just thinned.
     */
    private static long settledBytes(Path dir) throws IOException, InterruptedException {
        long last = -1;
        long now = WorkDirectory.bytesUnder(dir);
        while (now != last) {
            Thread.sleep(1000);
            last = now;
            now = WorkDirectory.bytesUnder(dir);
        }
        return now;
    }

    /**
     * Pulls {@code repository:tag} from {@code registry} as a client does (the manifest by tag, then its
     * config and layers, but those in {@code checked}), checks every byte against its digest, adds the blobs to
     * {@code checked}, and answers the bytes received.
     */
    private long pull(URI registry, String repository, String tag, Digest manifestDigest, Set<String> checked)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> manifest = http.send(HttpRequest.newBuilder(registry.resolve("/v2/" + repository + "/manifests/" + tag))
                .header("Accept", MANIFEST_TYPES).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (manifest.statusCode() != 200 || !Digest.sha256(manifest.body()).equals(manifestDigest)) {
            throw new IllegalStateException(registry + " served " + repository + ":" + tag + " as " + manifest.statusCode()
                    + " with other bytes than the manifest " + manifestDigest + " pushed upstream");
        }
        JsonNode parsed = JSON.readTree(manifest.body());
        List<JsonNode> blobs = new ArrayList<>();
        blobs.add(parsed.path("config"));
        parsed.path("layers").forEach(blobs::add);
        long received = manifest.body().length;
        for (JsonNode blob : blobs) {
            String digest = blob.path("digest").asString();
            if (!checked.add(digest)) {
                continue;
            }
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(registry.resolve("/v2/" + repository + "/blobs/" + digest))
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            MessageDigest sha256 = sha256();
            long length;
            try (InputStream body = new DigestInputStream(response.body(), sha256)) {
                length = body.transferTo(OutputStream.nullOutputStream());
            }
            String served = "sha256:" + HexFormat.of().formatHex(sha256.digest());
            if (response.statusCode() != 200 || !served.equals(digest) || length != blob.path("size").asLong()) {
                throw new IllegalStateException(registry + " served " + repository + "@" + digest + " as " + response.statusCode()
                        + ", " + length + " bytes with digest " + served);
            }
            received += length;
        }
        return received;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
