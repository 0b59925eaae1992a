package dev.layerfold.benchmark.registry;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.ReferenceRegistryProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Layerfold against the CNCF reference registry ({@code docker-registry}), both started here as their
 * own processes with their data in the same temporary directory (same disk, same page cache), driven by
 * the same client through the rounds of {@link PeerComparison}.
 */
public final class RegistryBenchmark implements Benchmark {

    private static final String SUITE = "registry";
    private static final String LAYERFOLD_HEAP = "1g";
    private static final int WARMUP_ROUNDS = 1;
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
            WorkDirectory.deleteRecursively(work);
        }
    }

    private void measure(Path work, BenchmarkReport report) throws Exception {
        PeerComparison comparison = PeerComparison.prepare(WARMUP_ROUNDS, MEASURED_ROUNDS);
        Path logs = work.resolve("logs");
        try (RegistryProcess layerfold = LayerfoldProcess.start(LAYERFOLD_HEAP, work.resolve("layerfold"), logs);
             RegistryProcess reference = ReferenceRegistryProcess.start(work.resolve("reference"), logs)) {
            System.out.println("started " + layerfold + " and " + reference);
            comparison.run(SUITE, layerfold, reference, report);
        }
    }
}
