package dev.layerfold.benchmark.registry;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Layerfold against the CNCF reference registry ({@code docker-registry}), both started here as their
 * own processes with their data in the same temporary directory (same disk, same page cache), driven by
 * the same client. Rounds alternate which registry goes first, so neither always meets a warmer or
 * busier machine; the first rounds only warm up (the JIT, the page cache) and are not counted.
 */
public final class RegistryBenchmark implements Benchmark {

    private static final String SUITE = "registry";
    private static final String LAYERFOLD_HEAP = "1g";
    private static final int WARMUP_ROUNDS = 2;
    private static final int MEASURED_ROUNDS = 5;

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-registry-benchmark-");
        try {
            measure(work, report);
        } finally {
            deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        System.out.println("generating blobs and their digests");
        SeededBlob large = SeededBlob.generate(1, Workload.LARGE_BLOB_SIZE);
        List<SeededBlob> small = new ArrayList<>();
        for (int i = 0; i < Workload.SMALL_BLOBS; i++) {
            small.add(SeededBlob.generate(1_000 + i, Workload.SMALL_BLOB_SIZE));
        }
        int rounds = WARMUP_ROUNDS + MEASURED_ROUNDS;
        List<SeededBlob> pushes = new ArrayList<>();
        for (int i = 0; i < 2 * rounds; i++) {
            pushes.add(SeededBlob.generate(10_000 + i, Workload.PUSH_SIZE));
        }

        Path logs = work.resolve("logs");
        try (RegistryProcess layerfold = LayerfoldProcess.start(LAYERFOLD_HEAP, work.resolve("layerfold"), logs);
             RegistryProcess reference = ReferenceRegistryProcess.start(work.resolve("reference"), logs);
             Workload ours = new Workload(layerfold, large, small);
             Workload peer = new Workload(reference, large, small)) {
            System.out.println("started " + layerfold + " and " + reference);
            ours.setUp();
            peer.setUp();
            for (int round = 0; round < rounds; round++) {
                boolean counted = round >= WARMUP_ROUNDS;
                SeededBlob monolithic = pushes.get(2 * round);
                SeededBlob chunked = pushes.get(2 * round + 1);
                for (Workload workload : round % 2 == 0 ? List.of(ours, peer) : List.of(peer, ours)) {
                    workload.round(monolithic, chunked, counted);
                }
                System.out.println((counted ? "measured" : "warm-up") + " round " + (round + 1) + " of " + rounds);
            }
            for (Metric metric : Metric.values()) {
                report.compare(SUITE, metric.label, metric.unit, ours.samples().of(metric), peer.samples().of(metric),
                        peer.name(), metric.higherIsBetter);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
