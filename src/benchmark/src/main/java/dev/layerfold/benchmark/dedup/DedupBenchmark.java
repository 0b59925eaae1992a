package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The dedup pipeline and restore service against their ceilings and peers (issue 9): dedup
 * throughput per CPU second against the split plus one encoder pass ({@link DedupThroughput}), restore
 * time against the encoder alone and against serving the layer intact ({@link RestoreTime}), bytes
 * stored against the ideal for a data set of several images ({@link StoredBytes}), and push time with
 * dedup on against off, at {@code -Xmx256m} ({@link RegistryPushes}), and what each dedup mode stores
 * and how fast its hot and cold layers pull ({@link DedupModes}). Layer sizes scale with the system
 * property {@code layerfold.benchmark.dedup.scale} (default 1; a smoke test runs 0.1); the property
 * {@code layerfold.benchmark.dedup.parts} runs some parts only (a comma-separated list of
 * {@code throughput,restore,stored,pushes,modes}).
 */
public final class DedupBenchmark implements Benchmark {

    private static final double SCALE = Double.parseDouble(System.getProperty("layerfold.benchmark.dedup.scale", "1"));
    private static final List<String> PARTS = List.of(System.getProperty("layerfold.benchmark.dedup.parts",
            "throughput,restore,stored,pushes,modes").split(","));

    @Override
    public String name() {
        return "dedup";
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-dedup-benchmark-");
        try {
            LayerMaker maker = LayerMaker.in(work);
            if (PARTS.contains("throughput")) {
                new DedupThroughput(work, maker, scaled(64L << 20), 1, 5).run(report);
            }
            if (PARTS.contains("restore")) {
                new RestoreTime(work, maker, List.of(scaled(1L << 20), scaled(20L << 20), scaled(100L << 20)), 5).run(report);
            }
            if (PARTS.contains("stored")) {
                new StoredBytes(work, maker, scaled(96L << 20)).run(report);
            }
            if (PARTS.contains("pushes")) {
                new RegistryPushes(work, maker, scaled(100L << 20), 1, 3).run(report);
            }
            if (PARTS.contains("modes")) {
                new DedupModes(work, maker, scaled(64L << 20)).run(report);
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private static long scaled(long bytes) {
        return Math.max(64 << 10, (long) (bytes * SCALE));
    }
}
