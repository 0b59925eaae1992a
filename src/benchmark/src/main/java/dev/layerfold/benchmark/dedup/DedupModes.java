package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.registry.CurlDownload;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Part 5: what each dedup mode costs and saves, through the packaged registry at {@code -Xmx256m} on the
 * embedded backend, one registry per mode ({@code off}, {@code all}, {@code selective}) run one after
 * the other on the same images ({@link ImageSet}). One image of the four is hot: its layers are pulled
 * {@link #HOT_PULLS} times, past the registry's {@code hot-pulls}. Then, once the sweep has done what
 * the mode asks (in {@code selective}, hot layers rehydrated), it measures the bytes on disk (blobs,
 * packs, records, metadata) and one pull of every layer, as a client that comes back later pulls it: hot
 * layers and cold ones apart. Restored layers are not kept as copies ({@code keep-restored=0s}) and the
 * predictor's tiers are off, so what is measured is the mode, not those caches.
 */
record DedupModes(Path work, LayerMaker maker, long distributionSize) {

    private static final String SUITE = "dedup";
    private static final String HEAP = "256m";
    private static final int HOT_PULLS = 4;
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(20);
    private static final Duration SWEEP_TIMEOUT = Duration.ofMinutes(2);

    /** What one mode stored and how fast its layers pulled. */
    private record Measured(double storedMegabytes, double[] hotMegabytesPerSecond, double[] coldMegabytesPerSecond) {
    }

    void run(BenchmarkReport report) throws Exception {
        List<ImageSet.Image> images = ImageSet.make(maker, distributionSize);
        ImageSet.Image hot = images.get(1); // built by Go at level 6, the most common producer
        Map<String, Measured> modes = new LinkedHashMap<>();
        for (String mode : List.of("off", "all", "selective")) {
            modes.put(mode, measure(mode, images, hot));
        }
        Measured off = modes.get("off");
        for (Map.Entry<String, Measured> mode : modes.entrySet()) {
            Measured measured = mode.getValue();
            report.value(SUITE, "mode " + mode.getKey() + ": bytes on disk", "MB", new double[] {measured.storedMegabytes()});
            if (measured != off) {
                report.compare(SUITE, "mode " + mode.getKey() + ": hot layer pull", "MB/s", measured.hotMegabytesPerSecond(),
                        off.hotMegabytesPerSecond(), "off", true);
                report.compare(SUITE, "mode " + mode.getKey() + ": cold layer pull", "MB/s", measured.coldMegabytesPerSecond(),
                        off.coldMegabytesPerSecond(), "off", true);
            }
        }
        report.compare(SUITE, "bytes on disk, selective vs all", "MB", new double[] {modes.get("selective").storedMegabytes()},
                new double[] {modes.get("all").storedMegabytes()}, "all", false);
        report.compare(SUITE, "hot layer pull, selective vs all", "MB/s", modes.get("selective").hotMegabytesPerSecond(),
                modes.get("all").hotMegabytesPerSecond(), "all", true);
    }

    private Measured measure(String mode, List<ImageSet.Image> images, ImageSet.Image hot) throws Exception {
        Path dir = Files.createDirectories(work.resolve("modes-" + mode));
        try (RegistryProcess registry = LayerfoldProcess.start(HEAP, dir.resolve("data"), dir.resolve("logs"), List.of(), Map.of(),
                Map.of("LAYERFOLD_DEDUP_MODE", mode, "LAYERFOLD_DEDUP_KEEP_RESTORED", "0s", "LAYERFOLD_DEDUP_HOT_PULLS", "3",
                        "LAYERFOLD_DEDUP_SWEEP_INTERVAL", "1s", "LAYERFOLD_PREDICTOR_MODE", "off"));
             ImageClient client = new ImageClient(registry.baseUri(), registry.managementUri())) {
            for (ImageSet.Image image : images) {
                client.push(repository(image), "latest", image.layers());
            }
            client.settle(SETTLE_TIMEOUT);
            for (int pull = 0; pull < HOT_PULLS; pull++) {
                for (ProducedLayer layer : hot.layers()) {
                    pull(registry, hot, layer);
                }
            }
            awaitRehydration(mode, client, hot.layers().size());
            client.settle(SETTLE_TIMEOUT);
            double stored = WorkDirectory.bytesUnder(registry.dataDir()) / 1e6;
            List<Double> hotPulls = new ArrayList<>();
            List<Double> coldPulls = new ArrayList<>();
            for (ImageSet.Image image : images) {
                for (ProducedLayer layer : image.layers()) {
                    (image == hot ? hotPulls : coldPulls).add(pull(registry, image, layer));
                }
            }
            System.out.printf("%-10s mode %s: %.1f MB on disk; hot pulls %s MB/s, cold pulls %s MB/s%n", SUITE, mode, stored,
                    rounded(hotPulls), rounded(coldPulls));
            return new Measured(stored, hotPulls.stream().mapToDouble(Double::doubleValue).toArray(),
                    coldPulls.stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    /**
     * In {@code selective} mode, waits until the sweep gave the hot image's layers their intact blob back
     * (the pulls reach the counts every 5 s, the sweep runs every second). The other modes keep no copy:
     * with {@code keep-restored=0s} a restore writes none.
     */
    private static void awaitRehydration(String mode, ImageClient client, int hotLayers) throws IOException, InterruptedException {
        if (!mode.equals("selective")) {
            return;
        }
        long deadline = System.nanoTime() + SWEEP_TIMEOUT.toNanos();
        while (client.metric("layerfold_dedup_copies_rehydrated_total") < hotLayers) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the hot layers were not rehydrated within " + SWEEP_TIMEOUT);
            }
            Thread.sleep(250);
        }
    }

    /** One whole-layer pull through curl, in MB/s. */
    private static double pull(RegistryProcess registry, ImageSet.Image image, ProducedLayer layer) throws IOException {
        URI uri = registry.baseUri().resolve("/v2/" + repository(image) + "/blobs/" + layer.digest());
        long start = System.nanoTime();
        long size = CurlDownload.discard(uri);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (size != layer.blob().length) {
            throw new IllegalStateException(uri + " served " + size + " bytes of " + layer);
        }
        return layer.blob().length / 1e6 / seconds;
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(value -> String.format("%.1f", value)).toList().toString();
    }

    private static String repository(ImageSet.Image image) {
        return "modes/" + image.name();
    }
}
