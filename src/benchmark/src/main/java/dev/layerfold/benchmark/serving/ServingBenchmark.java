package dev.layerfold.benchmark.serving;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.trace.GeneratorSettings;
import dev.layerfold.trace.ReplayReport;
import dev.layerfold.trace.Replayer;
import dev.layerfold.trace.SyntheticTrace;
import dev.layerfold.trace.TraceGenerator;
import dev.layerfold.trace.TraceRecord;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What clients see of each dedup mode on real-time traffic: a generated trace replayed at its own
 * timing (manifest-to-layer gaps of 0.05-0.4 s, as current clients send their layer GETs) against the
 * packaged registry at {@code -Xmx256m}, one fresh registry per configuration, on layers made of files
 * shared across layers (so dedup has something to find). The images the trace pulls are pushed first
 * and deduplicated (the registry's state when traffic starts); then the replay, during which new
 * versions are pushed. It prints, per configuration: layer GET p50/p95/p99, the share of layer GETs
 * that waited for a rebuild (whole-layer restores, less those the sweeper made ahead), and the bytes
 * on disk at the end of the replay. The predictor is off in every configuration, so what is measured
 * is the dedup mode and its intact copies.
 *
 * <p>Properties ({@code -Dlayerfold.benchmark.serving.NAME}): {@code shapes} (ibm, ci, release), {@code seeds}, {@code duration}
 * (ISO-8601, default PT2M), {@code scale} (share of the trace's layer sizes, default 0.05),
 * {@code configs} (off, all, selective, budgeted).
 */
public final class ServingBenchmark implements Benchmark {

    private static final String SUITE = "serving";
    private static final String HEAP = "256m";

    /** The trace shapes: flags of the generator on top of a small registry's. */
    private static final Map<String, Map<String, String>> SHAPES = Map.of(
            // Skewed popularity over few bases; most pulls by clients that hold the image (IBM traces).
            "ibm", Map.of(),
            // Ephemeral CI runners pulling again what they pulled before.
            "ci", Map.of("pullOnceShare", "0.5", "alwaysPullRepull", "0.9", "clientSkew", "1.2"),
            // A release: more pushes, pulls concentrated on the newest versions of the top repositories.
            "release", Map.of("popularitySkew", "1.4", "getPutRatio", "8", "pullsPerSecond", "3"));

    private static final Map<String, Map<String, String>> CONFIGS = new LinkedHashMap<>();

    static {
        CONFIGS.put("off", Map.of("layerfold.dedup.mode", "off"));
        CONFIGS.put("all", Map.of("layerfold.dedup.mode", "all", "layerfold.dedup.keep-restored", "0s"));
        CONFIGS.put("selective", Map.of("layerfold.dedup.mode", "selective", "layerfold.dedup.keep-restored", "0s"));
        CONFIGS.put("budgeted", Map.of("layerfold.dedup.mode", "budgeted"));
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        List<String> shapes = List.of(System.getProperty("layerfold.benchmark.serving.shapes", "ibm").split(","));
        long[] seeds = Arrays.stream(System.getProperty("layerfold.benchmark.serving.seeds", "1").split(",")).mapToLong(Long::parseLong).toArray();
        List<String> configs = List.of(System.getProperty("layerfold.benchmark.serving.configs", "off,all,selective,budgeted").split(","));
        Duration duration = Duration.parse(System.getProperty("layerfold.benchmark.serving.duration", "PT2M"));
        double scale = Double.parseDouble(System.getProperty("layerfold.benchmark.serving.scale", "0.05"));
        Path work = Files.createTempDirectory("layerfold-serving-");
        try {
            for (String shape : shapes) {
                for (long seed : seeds) {
                    Map<String, String> flags = new LinkedHashMap<>(Map.of("seed", Long.toString(seed), "duration", duration.toString(),
                            "repositories", "40", "bases", "4", "clients", "150", "pullsPerSecond", "1.5",
                            "layerDelayMin", "0.05", "layerDelaySpread", "0.35", "layerSizeMax", "200000000"));
                    flags.putAll(SHAPES.get(shape));
                    SyntheticTrace trace = TraceGenerator.generate(GeneratorSettings.DEFAULTS.with(flags));
                    System.out.printf("%s shape %s seed %d: %d requests over %s, %.0f MB of distinct layers at scale %s%n", SUITE, shape,
                            seed, trace.records().size(), duration, trace.uniqueBytes() * scale / 1e6, scale);
                    for (String config : configs) {
                        Measured measured = measure(work.resolve(shape + "-" + seed + "-" + config), trace.records(), config, scale);
                        String label = shape + " seed " + seed + " " + config;
                        System.out.printf("%-8s %-26s layer GETs %5d  p50 %8.1f ms  p95 %8.1f ms  p99 %8.1f ms  waited %5.1f%%  stored %7.1f MB"
                                        + "  failed %d%n", SUITE, label, measured.layerGets(), measured.p50() / 1e6, measured.p95() / 1e6,
                                measured.p99() / 1e6, 100 * measured.waitedShare(), measured.storedBytes() / 1e6, measured.failures());
                        report.value(SUITE, label + ": layer GET p99", "ms", new double[] {measured.p99() / 1e6});
                        report.value(SUITE, label + ": waited for a rebuild", "%", new double[] {100 * measured.waitedShare()});
                        report.value(SUITE, label + ": stored at the end", "MB", new double[] {measured.storedBytes() / 1e6});
                    }
                }
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private record Measured(int layerGets, long p50, long p95, long p99, double waitedShare, long storedBytes, int failures) {
    }

    private Measured measure(Path dir, List<TraceRecord> records, String config, double scale) throws Exception {
        Map<String, String> properties = new LinkedHashMap<>(CONFIGS.get(config));
        properties.put("layerfold.predictor.mode", "off");
        properties.put("layerfold.dedup.sweep-interval", "5s");
        try (RegistryProcess registry = LayerfoldProcess.start(HEAP, dir.resolve("data"), dir.resolve("logs"), List.of(), properties)) {
            Replayer replayer = new Replayer(new Replayer.Options(registry.baseUri(), 1, scale, 256, true));
            replayer.prepare(records);
            if (!config.equals("off")) {
                settle(registry.managementUri());
            }
            double rebuiltBefore = metric(registry.managementUri(), "layerfold_restore_duration_seconds_count");
            double aheadBefore = metric(registry.managementUri(), "layerfold_dedup_copies_rehydrated_total");
            ReplayReport report = replayer.replay(records);
            long stored = storedBytes(registry.dataDir());
            double rebuilt = metric(registry.managementUri(), "layerfold_restore_duration_seconds_count") - rebuiltBefore;
            double ahead = metric(registry.managementUri(), "layerfold_dedup_copies_rehydrated_total") - aheadBefore;
            int gets = report.count("GET blob");
            System.out.printf("%s %s: copies kept %.0f, evicted %.0f, rebuilt ahead %.0f, budget %.1f MB, held %.1f MB, dedup paused %.0f times%n",
                    SUITE, config, metric(registry.managementUri(), "layerfold_restore_copies_kept_total"),
                    metric(registry.managementUri(), "layerfold_dedup_copies_evicted_total"), ahead,
                    metric(registry.managementUri(), "layerfold_dedup_copies_budget_bytes") / 1e6,
                    metric(registry.managementUri(), "layerfold_dedup_copies_held_bytes") / 1e6,
                    metric(registry.managementUri(), "layerfold_dedup_yield_pauses_total"));
            report.problems().stream().limit(3).forEach(problem -> System.out.println(SUITE + " " + config + ": " + problem));
            return new Measured(gets, report.latencyQuantile("GET blob", 0.5), report.latencyQuantile("GET blob", 0.95),
                    report.latencyQuantile("GET blob", 0.99), gets == 0 ? 0 : Math.max(0, rebuilt - ahead) / gets, stored,
                    report.failures());
        }
    }

    /**
     * Blobs (intact layers, copies, packs, records) and the metadata; not the scratch, the uploads in
     * progress nor the links a response is being sent from, which hold nothing for long.
     */
    private static long storedBytes(Path data) throws IOException {
        long bytes = WorkDirectory.bytesUnder(data.resolve("blobs"));
        try (var files = Files.list(data)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("metadata.db")).toList()) {
                bytes += Files.size(file);
            }
        }
        return bytes;
    }

    /** Waits until the registry deduplicated every layer pushed so far. */
    private void settle(URI management) throws IOException, InterruptedException {
        HttpResponse<String> settled = http.send(HttpRequest.newBuilder(management.resolve("/actuator/dedup"))
                .header("Content-Type", "application/json").timeout(Duration.ofMinutes(21))
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":1200}")).build(), HttpResponse.BodyHandlers.ofString());
        if (settled.statusCode() != 200) {
            throw new IOException("POST /actuator/dedup answered " + settled.statusCode() + ": " + settled.body());
        }
    }

    /** The sum of a metric's series, as Prometheus spells it. */
    private double metric(URI management, String name) throws IOException, InterruptedException {
        HttpResponse<String> scraped = http.send(HttpRequest.newBuilder(management.resolve("/actuator/prometheus")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return scraped.body().lines().filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
