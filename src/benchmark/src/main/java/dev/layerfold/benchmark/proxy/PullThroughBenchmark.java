package dev.layerfold.benchmark.proxy;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.registry.CurlDownload;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the pull-through cache costs and saves on a large blob: the first pull through Layerfold (fetched
 * from the upstream while it is stored and sent) against the first pull through the CNCF registry's own
 * pull-through cache ({@code proxy.remoteurl}) of the same upstream, and each second pull (from storage)
 * against the same; both also against pulling straight from the upstream, the CNCF registry on the same
 * disk, in the same run. Every round pulls a blob of its own, so each first pull is a cold one.
 */
public final class PullThroughBenchmark implements Benchmark {

    private static final String SUITE = "proxy";
    private static final String HEAP = "512m";
    private static final String REPOSITORY = "bench/upstream";
    private static final int BLOB_SIZE = 128 << 20;
    private static final int ROUNDS = 5;
    /** Rounds not counted: the first cold pulls run SHA-256 and the copies before C2 compiled them. */
    private static final int WARMUP_ROUNDS = 2;

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-proxy-benchmark-");
        try {
            measure(work, report);
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        Path logs = work.resolve("logs");
        try (RegistryProcess upstream = ReferenceRegistryProcess.start(work.resolve("upstream"), logs);
             RegistryProcess layerfold = LayerfoldProcess.start(HEAP, work.resolve("layerfold"), logs, List.of(), Map.of(
                     "layerfold.proxy.upstreams[0].prefix", "up",
                     "layerfold.proxy.upstreams[0].url", upstream.baseUri().toString()));
             RegistryProcess reference = ReferenceRegistryProcess.startAsCacheOf(upstream.baseUri(), work.resolve("reference-cache"), logs);
             BlobClient pusher = new BlobClient(upstream.baseUri())) {
            List<String> digests = new ArrayList<>();
            Random random = new Random(31);
            byte[] blob = new byte[BLOB_SIZE];
            for (int i = 0; i < ROUNDS + WARMUP_ROUNDS; i++) {
                random.nextBytes(blob);
                String digest = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(blob));
                pusher.pushMonolithic(REPOSITORY, digest, BLOB_SIZE, new ByteArrayInputStream(blob));
                digests.add(digest);
            }
            double[] direct = new double[ROUNDS];
            double[] first = new double[ROUNDS];
            double[] second = new double[ROUNDS];
            double[] referenceFirst = new double[ROUNDS];
            double[] referenceSecond = new double[ROUNDS];
            for (int round = 0; round < ROUNDS + WARMUP_ROUNDS; round++) {
                String digest = digests.get(round);
                URI straight = upstream.baseUri().resolve("/v2/" + REPOSITORY + "/blobs/" + digest);
                URI cached = layerfold.baseUri().resolve("/v2/up/" + REPOSITORY + "/blobs/" + digest);
                URI referenceCached = reference.baseUri().resolve("/v2/" + REPOSITORY + "/blobs/" + digest);
                double directRate = megabytesPerSecond(straight);
                // Alternating which cache goes first, so neither always meets the upstream's page cache warm.
                double firstRate;
                double referenceFirstRate;
                if (round % 2 == 0) {
                    firstRate = megabytesPerSecond(cached);
                    referenceFirstRate = megabytesPerSecond(referenceCached);
                } else {
                    referenceFirstRate = megabytesPerSecond(referenceCached);
                    firstRate = megabytesPerSecond(cached);
                }
                double secondRate = megabytesPerSecond(cached);
                double referenceSecondRate = megabytesPerSecond(referenceCached);
                if (round >= WARMUP_ROUNDS) {
                    int counted = round - WARMUP_ROUNDS;
                    direct[counted] = directRate;
                    first[counted] = firstRate;
                    second[counted] = secondRate;
                    referenceFirst[counted] = referenceFirstRate;
                    referenceSecond[counted] = referenceSecondRate;
                }
                System.out.printf("round %d: direct %.0f MB/s; first pull layerfold %.0f, reference cache %.0f MB/s;"
                        + " second pull layerfold %.0f, reference cache %.0f MB/s%n",
                        round, directRate, firstRate, referenceFirstRate, secondRate, referenceSecondRate);
            }
            report.compare(SUITE, "128 MiB first pull (cold cache)", "MB/s", first, referenceFirst, "reference cache", true);
            report.compare(SUITE, "128 MiB second pull (cached)", "MB/s", second, referenceSecond, "reference cache", true);
            report.compare(SUITE, "128 MiB first pull vs no cache", "MB/s", first, direct, "straight from upstream", true);
            report.compare(SUITE, "128 MiB second pull vs no cache", "MB/s", second, direct, "straight from upstream", true);
        }
    }

    private static double megabytesPerSecond(URI blob) throws Exception {
        long start = System.nanoTime();
        long size = CurlDownload.discard(blob);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (size != BLOB_SIZE) {
            throw new IllegalStateException(blob + " served " + size + " bytes");
        }
        return size / 1e6 / seconds;
    }
}
