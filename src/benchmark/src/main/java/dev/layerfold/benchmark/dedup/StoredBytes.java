package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.dedup.pipeline.DedupOutcome;
import dev.layerfold.storage.dedup.DedupTotals;
import java.nio.file.Path;
import java.util.List;

/**
 * Part 3: what the pipeline stores for a data set of several images ({@link ImageSet}), deduplicated
 * one layer after another into one embedded backend, against the ideal computed without it
 * ({@link IdealStorage}). Target: within 5% of the ideal.
 */
record StoredBytes(Path work, LayerMaker maker, long distributionSize) {

    private static final String SUITE = "dedup";

    void run(BenchmarkReport report) throws Exception {
        List<ProducedLayer> layers = ImageSet.make(maker, distributionSize).stream().flatMap(image -> image.layers().stream()).toList();
        layers.forEach(layer -> System.out.println("data set, " + layer));
        long pushed = layers.stream().mapToLong(layer -> layer.blob().length).sum();
        long outcomes = 0;
        DedupTotals totals;
        long onDisk;
        try (EmbeddedDedup backend = EmbeddedDedup.create(work)) {
            for (ProducedLayer layer : layers) {
                backend.push(layer);
                DedupOutcome outcome = backend.deduplicate(layer);
                outcomes += outcome.storedBytes();
            }
            totals = backend.index().totals();
            onDisk = backend.storedBytes();
        }
        IdealStorage ideal = IdealStorage.of(layers);
        System.out.printf("%-10s data set: %d layers, %.1f MB pushed (gzip), %.1f MB of tar; %d files, %d unique (pipeline: %d unique)%n",
                SUITE, layers.size(), pushed / 1e6, layers.stream().mapToDouble(ProducedLayer::tarMegabytes).sum(),
                ideal.fileReferences(), ideal.uniqueFiles(), totals.uniqueFiles());
        System.out.printf("%-10s ideal: %.2f MB of zstd-3 frames of unique files + %.2f MB of tar headers (%.2f MB zstd'd per layer)"
                + " = %.2f MB (%.2f MB)%n", SUITE, ideal.compressedUnique() / 1e6, ideal.headerBytes() / 1e6, ideal.compressedHeaders() / 1e6,
                ideal.bytes() / 1e6, ideal.bytesWithCompressedHeaders() / 1e6);
        System.out.printf("%-10s stored: %.2f MB by the index's totals, %.2f MB by the layers' outcomes, %.2f MB of files on disk%n",
                SUITE, totals.storedBytes() / 1e6, outcomes / 1e6, onDisk / 1e6);
        report.compare(SUITE, "bytes stored vs ideal", "MB", new double[] {onDisk / 1e6}, new double[] {ideal.bytes() / 1e6}, "ideal",
                false);
        report.value(SUITE, "stored above ideal", "%", new double[] {100.0 * (onDisk - ideal.bytes()) / ideal.bytes()});
        report.compare(SUITE, "bytes stored vs ideal, headers zstd'd", "MB", new double[] {onDisk / 1e6},
                new double[] {ideal.bytesWithCompressedHeaders() / 1e6}, "stricter ideal", false);
        report.value(SUITE, "stored / pushed (gzip layers)", "%", new double[] {100.0 * onDisk / pushed});
    }
}
