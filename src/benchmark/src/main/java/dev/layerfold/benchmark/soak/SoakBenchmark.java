package dev.layerfold.benchmark.soak;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import dev.layerfold.e2e.load.FileDescriptors;
import dev.layerfold.e2e.load.LargeManifest;
import dev.layerfold.e2e.load.SlowReaders;
import dev.layerfold.e2e.load.SlowWriters;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Normal pulls on a registry held by hostile clients (issue 13): the packaged jar at the heap of
 * 256 MiB, 2,000 slow readers (a 4 MiB manifest and a 16 MiB blob requested through a 4 KiB receive buffer
 * and never read) and 2,000 slow writers (PATCH uploads sending one byte every 5 s) held open while small
 * blob GETs and manifest GETs measure their latency. The peer is the same registry idle, measured in the
 * same run before the hostile clients come and after they leave; the ratio is idle over held (1.0x is
 * no slowdown, 0.5x is twice as slow). Loopback only; needs about 4,100 file descriptors in this process
 * and as many in the registry's ({@code ulimit -n} 8192 is enough).
 */
public final class SoakBenchmark implements Benchmark {

    private static final String SUITE = "soak";
    private static final String HEAP = "256m";
    private static final int SLOW_READERS = 2_000;
    private static final int SLOW_WRITERS = 2_000;
    private static final int PULLS_PER_ROUND = 200;
    private static final int ROUNDS = 3;
    private static final int LARGE_MANIFEST = 4 * 1024 * 1024 - 64;
    private static final String REPOSITORY = "soak/app";

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        FileDescriptors.require(SLOW_READERS + SLOW_WRITERS + 100, "the soak benchmark");
        Path work = Files.createTempDirectory("layerfold-soak-benchmark-");
        try (RegistryProcess registry = LayerfoldProcess.start(HEAP, work.resolve("data"), work.resolve("logs"));
             BlobClient blobs = new BlobClient(registry.baseUri());
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            System.out.println("started " + registry + " with -Xmx" + HEAP);
            Pulls pulls = Pulls.seed(registry.baseUri(), blobs, http, REPOSITORY);
            String largeBlob = pushLargeBlob(blobs, 16 * 1024 * 1024);
            Pulls.pushManifest(http, registry.baseUri(), REPOSITORY, "big",
                    LargeManifest.of(blobs, REPOSITORY, LARGE_MANIFEST, 's'));

            List<Double> idleBlob = new ArrayList<>();
            List<Double> idleManifest = new ArrayList<>();
            List<Double> heldBlob = new ArrayList<>();
            List<Double> heldManifest = new ArrayList<>();
            pulls.measure(PULLS_PER_ROUND, idleBlob, idleManifest); // warm-up, not counted
            idleBlob.clear();
            idleManifest.clear();
            for (int round = 0; round < ROUNDS; round++) {
                pulls.measure(PULLS_PER_ROUND, idleBlob, idleManifest);
                try {
                    hold(registry, blobs, http, largeBlob, () -> pulls.measure(PULLS_PER_ROUND, heldBlob, heldManifest));
                } catch (Exception e) {
                    throw new IllegalStateException("the hostile clients' round failed; the registry "
                            + (registry.isAlive() ? "runs" : "died") + ", its log ends with:\n" + registry.logTail(), e);
                }
            }
            report.compare(SUITE, "small-blob GET under 4,000 slow clients", "ms", toArray(heldBlob),
                    toArray(idleBlob), "idle", false);
            report.compare(SUITE, "manifest GET under 4,000 slow clients", "ms", toArray(heldManifest),
                    toArray(idleManifest), "idle", false);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    /** Opens the hostile clients, runs {@code measurement} while they hold, then lets them go. */
    private static void hold(RegistryProcess registry, BlobClient blobs, HttpClient http, String largeBlob,
                             Measurement measurement) throws Exception {
        URI base = registry.baseUri();
        List<String> uploads = new ArrayList<>(SLOW_WRITERS);
        for (int i = 0; i < SLOW_WRITERS; i++) {
            HttpResponse<Void> started = http.send(HttpRequest.newBuilder(base.resolve("/v2/" + REPOSITORY + "/blobs/uploads/"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            uploads.add(started.headers().firstValue("Location").orElseThrow());
        }
        long opening = System.nanoTime();
        try (SlowReaders manifestReaders = SlowReaders.open(base, "/v2/" + REPOSITORY + "/manifests/big", SLOW_READERS / 2);
             SlowReaders blobReaders = SlowReaders.open(base, "/v2/" + REPOSITORY + "/blobs/" + largeBlob, SLOW_READERS / 2);
             SlowWriters writers = SlowWriters.open(base, "PATCH", uploads::get, SLOW_WRITERS, Duration.ofSeconds(5))) {
            Map<Integer, Integer> manifestStatuses = manifestReaders.awaitStatuses(Duration.ofSeconds(30));
            Map<Integer, Integer> blobStatuses = blobReaders.awaitStatuses(Duration.ofSeconds(30));
            System.out.printf("  %d slow readers and %d slow writers open after %.1f s; readers' statuses: manifest %s,"
                            + " blob %s%n", manifestReaders.size() + blobReaders.size(), writers.size(),
                    (System.nanoTime() - opening) / 1e9, manifestStatuses, blobStatuses);
            measurement.run();
            System.out.printf("  held %.1f s; slow writers dropped by the registry meanwhile: %d%n",
                    (System.nanoTime() - opening) / 1e9, writers.dropped());
        }
        for (String upload : uploads) {
            http.send(HttpRequest.newBuilder(base.resolve(upload)).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        }
    }

    @FunctionalInterface
    private interface Measurement {
        void run() throws Exception;
    }

    /** A blob of {@code size} bytes for slow readers to hold; returns its digest. */
    private static String pushLargeBlob(BlobClient blobs, long size) throws Exception {
        String digest = Sha256.of(new GeneratedContent(8, size));
        blobs.pushMonolithic(REPOSITORY, digest, size, new GeneratedContent(8, size));
        return digest;
    }

    private static double[] toArray(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
