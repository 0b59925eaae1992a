package dev.layerfold.benchmark.registry;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The registry suite's push/pull workload run against Layerfold and a peer registry, whatever storage
 * each runs on, so every suite that compares registries measures the same thing. Rounds alternate which
 * registry goes first, so neither always meets a warmer or busier machine; the first rounds only warm up
 * (the JIT, caches) and are not counted.
 */
public final class PeerComparison {

    private final int warmupRounds;
    private final int measuredRounds;
    private final SeededBlob large;
    private final List<SeededBlob> small;
    private final List<SeededBlob> pushes;

    private PeerComparison(int warmupRounds, int measuredRounds, SeededBlob large, List<SeededBlob> small,
                           List<SeededBlob> pushes) {
        this.warmupRounds = warmupRounds;
        this.measuredRounds = measuredRounds;
        this.large = large;
        this.small = small;
        this.pushes = pushes;
    }

    /**
     * Generates the blobs and their digests up front, before any registry runs, so hashing neither
     * loads the registries nor counts in their times.
     */
    public static PeerComparison prepare(int warmupRounds, int measuredRounds) throws IOException {
        System.out.println("generating blobs and their digests");
        SeededBlob large = SeededBlob.generate(1, Workload.LARGE_BLOB_SIZE);
        List<SeededBlob> small = new ArrayList<>();
        for (int i = 0; i < Workload.SMALL_BLOBS; i++) {
            small.add(SeededBlob.generate(1_000 + i, Workload.SMALL_BLOB_SIZE));
        }
        List<SeededBlob> pushes = new ArrayList<>();
        for (int i = 0; i < 2 * (warmupRounds + measuredRounds); i++) {
            pushes.add(SeededBlob.generate(10_000 + i, Workload.PUSH_SIZE));
        }
        return new PeerComparison(warmupRounds, measuredRounds, large, small, pushes);
    }

    /** Runs every round against both registries and reports each metric under {@code suite}. */
    public void run(String suite, RegistryProcess layerfold, RegistryProcess peer, BenchmarkReport report)
            throws IOException {
        try (Workload ours = new Workload(layerfold, large, small);
             Workload theirs = new Workload(peer, large, small)) {
            ours.setUp();
            theirs.setUp();
            int rounds = warmupRounds + measuredRounds;
            for (int round = 0; round < rounds; round++) {
                boolean counted = round >= warmupRounds;
                SeededBlob monolithic = pushes.get(2 * round);
                SeededBlob chunked = pushes.get(2 * round + 1);
                for (Workload workload : round % 2 == 0 ? List.of(ours, theirs) : List.of(theirs, ours)) {
                    workload.round(monolithic, chunked, counted);
                }
                System.out.println((counted ? "measured" : "warm-up") + " round " + (round + 1) + " of " + rounds);
            }
            for (Metric metric : Metric.values()) {
                report.compare(suite, metric.label, metric.unit, ours.samples().of(metric),
                        theirs.samples().of(metric), theirs.name(), metric.higherIsBetter);
            }
        }
    }
}
