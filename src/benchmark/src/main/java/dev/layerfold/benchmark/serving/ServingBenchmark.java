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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * <p>Steady state: the trace's first {@code warmup} is replayed unmeasured, so the copy policy has
 * learnt popularity from real pulls before the measured {@code duration} starts. The trace is replayed
 * in real time, not compressed: the policy's clock (pull counts decaying over a day) is the real one.
 *
 * <p>Diagnosis: each layer GET is classed when it is sent by whether the layer's intact blob is on
 * disk then (the registry's data directory is this machine's): {@code intact}, or {@code rebuilt}
 * (a restore, or joining one) and why no copy was there: the layer was pulled before in this replay
 * ({@code pulled before}: evicted, or never admitted), it is a first pull of a layer pushed before the
 * replay ({@code first pull, pushed before}) or during it ({@code first pull, pushed during}). Each
 * class's count and p99 are printed, and how long rebuilds waited for rebuild memory.
 *
 * <p>Properties ({@code -Dlayerfold.benchmark.serving.NAME}): {@code shapes} (ibm, ci, release), {@code seeds}, {@code duration}
 * (ISO-8601, the measured part, default PT2M), {@code warmup} (ISO-8601, replayed before it unmeasured,
 * default PT1M), {@code scale} (share of the trace's layer sizes, default 0.05), {@code configs} (off,
 * all, selective, budgeted; {@code budgeted-0.1} sets {@code intact-share}, for the budget against the
 * saving).
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
        Duration warmup = Duration.parse(System.getProperty("layerfold.benchmark.serving.warmup", "PT1M"));
        double scale = Double.parseDouble(System.getProperty("layerfold.benchmark.serving.scale", "0.05"));
        Path work = Files.createTempDirectory("layerfold-serving-");
        try {
            for (String shape : shapes) {
                for (long seed : seeds) {
                    Map<String, String> flags = new LinkedHashMap<>(Map.of("seed", Long.toString(seed), "duration", duration.plus(warmup).toString(),
                            "repositories", "40", "bases", "4", "clients", "150", "pullsPerSecond", "1.5",
                            "layerDelayMin", "0.05", "layerDelaySpread", "0.35", "layerSizeMax", "200000000"));
                    flags.putAll(SHAPES.get(shape));
                    SyntheticTrace trace = TraceGenerator.generate(GeneratorSettings.DEFAULTS.with(flags));
                    Instant measuredFrom = trace.records().getFirst().timestamp().plus(warmup);
                    List<TraceRecord> warm = trace.records().stream().filter(r -> r.timestamp().isBefore(measuredFrom)).toList();
                    List<TraceRecord> measuredPart = trace.records().subList(warm.size(), trace.records().size());
                    System.out.printf("%s shape %s seed %d: %d requests over %s (%d of them in the unmeasured warm-up of %s), %.0f MB of"
                                    + " distinct layers at scale %s%n", SUITE, shape, seed, trace.records().size(), duration.plus(warmup),
                            warm.size(), warmup, trace.uniqueBytes() * scale / 1e6, scale);
                    Map<String, Measured> byConfig = new LinkedHashMap<>();
                    for (String config : configs) {
                        Measured measured = measure(work.resolve(shape + "-" + seed + "-" + config), trace.records(), warm, measuredPart,
                                config, scale);
                        String label = shape + " seed " + seed + " " + config;
                        System.out.printf("%-8s %-31s layer GETs %5d  p50 %8.1f ms  p95 %8.1f ms  p99 %8.1f ms  waited %5.1f%% (restores"
                                        + " %5.1f%%)  stored %7.1f MB  failed %d%n", SUITE, label, measured.layerGets(), measured.p50() / 1e6,
                                measured.p95() / 1e6, measured.p99() / 1e6, 100 * measured.waitedShare(), 100 * measured.restoredShare(),
                                measured.storedBytes() / 1e6, measured.failures());
                        report.value(SUITE, label + ": layer GET p99", "ms", new double[] {measured.p99() / 1e6});
                        report.value(SUITE, label + ": waited for a rebuild", "%", new double[] {100 * measured.waitedShare()});
                        report.value(SUITE, label + ": p99 of layer GETs served intact", "ms", new double[] {measured.p99Intact() / 1e6});
                        report.value(SUITE, label + ": stored at the end", "MB", new double[] {measured.storedBytes() / 1e6});
                        byConfig.put(config, measured);
                    }
                    if (byConfig.containsKey("off") && byConfig.containsKey("all")) {
                        printBound(shape + " seed " + seed, byConfig.get("off"), byConfig.get("all"));
                    }
                }
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    /**
     * @param waitedShare   layer GETs sent while the layer had no intact blob (a restore, or joining one)
     * @param restoredShare whole-layer restores for clients (less the sweeper's rebuilds ahead) per layer GET
     */
    private record Measured(int layerGets, long p50, long p95, long p99, long p99Intact, double waitedShare, double restoredShare,
                            long storedBytes, int failures, Map<String, Integer> getsByLayer, Map<String, Long> sizes) {
    }

    /**
     * What bounds any copy policy within the storage target ({@code all + 0.3 x (off - all)}): the best
     * fixed set of intact copies chosen with hindsight, most GETs per byte first, within those bytes,
     * and the share of layer GETs it leaves to a rebuild. Layers pulled once in the measured part
     * cannot be learnt from their pulls; this set may still hold them, so the bound is generous.
     */
    private static void printBound(String label, Measured off, Measured all) {
        Measured measured = all;
        long room = (long) (0.3 * Math.max(0, off.storedBytes() - all.storedBytes()));
        List<Map.Entry<String, Integer>> byValue = new ArrayList<>(measured.getsByLayer().entrySet());
        byValue.sort(Comparator.comparingDouble(
                (Map.Entry<String, Integer> e) -> -e.getValue() / (double) Math.max(1, measured.sizes().getOrDefault(e.getKey(), 1L))));
        long used = 0;
        int covered = 0;
        int total = measured.getsByLayer().values().stream().mapToInt(Integer::intValue).sum();
        for (Map.Entry<String, Integer> layer : byValue) {
            long size = measured.sizes().getOrDefault(layer.getKey(), 0L);
            if (used + size <= room) {
                used += size;
                covered += layer.getValue();
            }
        }
        long once = measured.getsByLayer().values().stream().filter(n -> n == 1).count();
        System.out.printf("%s %s: bound: copies of %.1f MB (0.3 of the %.1f MB saved) chosen with hindsight serve %d of %d layer GETs;"
                        + " at least %.1f%% rebuilt; %d of %d layers pulled once in the measured part%n", SUITE, label, used / 1e6,
                (off.storedBytes() - all.storedBytes()) / 1e6, covered, total, total == 0 ? 0 : 100.0 * (total - covered) / total, once,
                measured.getsByLayer().size());
    }

    private static final String INTACT = "intact";
    private static final String REBUILT = "rebuilt";
    private static final String PULLED_BEFORE = REBUILT + "/pulled before";
    private static final String FIRST_PUSHED_BEFORE = REBUILT + "/first pull, pushed before";
    private static final String FIRST_PUSHED_DURING = REBUILT + "/first pull, pushed during";

    private static Map<String, String> properties(String config) {
        if (config.startsWith("budgeted-")) {
            return Map.of("layerfold.dedup.mode", "budgeted", "layerfold.dedup.intact-share", config.substring("budgeted-".length()));
        }
        Map<String, String> properties = CONFIGS.get(config);
        if (properties == null) {
            throw new IllegalArgumentException("no configuration " + config + " (off, all, selective, budgeted, budgeted-SHARE)");
        }
        return properties;
    }

    private Measured measure(Path dir, List<TraceRecord> records, List<TraceRecord> warm, List<TraceRecord> measuredPart, String config,
                             double scale) throws Exception {
        Map<String, String> properties = new LinkedHashMap<>(properties(config));
        properties.put("layerfold.predictor.mode", "off");
        properties.put("layerfold.dedup.sweep-interval", "5s");
        try (RegistryProcess registry = LayerfoldProcess.start(HEAP, dir.resolve("data"), dir.resolve("logs"), List.of(), properties)) {
            Replayer replayer = new Replayer(new Replayer.Options(registry.baseUri(), 1, scale, 256, true));
            replayer.prepare(records);
            if (!config.equals("off")) {
                settle(registry.managementUri());
            }
            Set<String> pushedBefore = replayer.pushedSizes().keySet();
            Set<String> pulled = ConcurrentHashMap.newKeySet();
            Map<String, Integer> measuredGets = new ConcurrentHashMap<>();
            boolean[] measuring = {false};
            Path blobs = registry.dataDir().resolve("blobs");
            replayer.classifyBlobGets(digest -> {
                boolean first = pulled.add(digest);
                if (measuring[0]) {
                    measuredGets.merge(digest, 1, Integer::sum);
                }
                String hex = digest.substring(digest.indexOf(':') + 1);
                if (Files.exists(blobs.resolve(digest.substring(0, digest.indexOf(':'))).resolve(hex.substring(0, 2)).resolve(hex))) {
                    return INTACT;
                }
                return !first ? PULLED_BEFORE : pushedBefore.contains(digest) ? FIRST_PUSHED_BEFORE : FIRST_PUSHED_DURING;
            });
            if (!warm.isEmpty()) {
                ReplayReport warmReport = replayer.replay(warm);
                System.out.printf("%s %s: warm-up of %d requests, %d layer GETs, %d of them rebuilt%n", SUITE, config, warm.size(),
                        warmReport.count("GET blob"), warmReport.count("GET blob [" + REBUILT + "]"));
            }
            URI management = registry.managementUri();
            double rebuiltBefore = metric(management, "layerfold_restore_duration_seconds_count");
            double aheadBefore = metric(management, "layerfold_dedup_copies_rehydrated_total");
            double queuedBefore = metric(management, "layerfold_restore_queue_wait_seconds_count");
            double queuedSlowBefore = queuedSlowerThan(management, 0.01);
            double queuedSecondsBefore = metric(management, "layerfold_restore_queue_wait_seconds_sum");
            measuring[0] = true;
            ReplayReport report = replayer.replay(measuredPart);
            long stored = storedBytes(registry.dataDir());
            double rebuilt = metric(management, "layerfold_restore_duration_seconds_count") - rebuiltBefore;
            double ahead = metric(management, "layerfold_dedup_copies_rehydrated_total") - aheadBefore;
            int gets = report.count("GET blob");
            System.out.printf("%s %s: copies kept %.0f, evicted %.0f, rebuilt ahead %.0f, budget %.1f MB, held %.1f MB, dedup paused %.0f times%n",
                    SUITE, config, metric(management, "layerfold_restore_copies_kept_total"),
                    metric(management, "layerfold_dedup_copies_evicted_total"), ahead,
                    metric(management, "layerfold_dedup_copies_budget_bytes") / 1e6,
                    metric(management, "layerfold_dedup_copies_held_bytes") / 1e6,
                    metric(management, "layerfold_dedup_yield_pauses_total"));
            for (String kind : List.of(INTACT, REBUILT, PULLED_BEFORE, FIRST_PUSHED_BEFORE, FIRST_PUSHED_DURING)) {
                String key = "GET blob [" + kind + "]";
                System.out.printf("%s %s:   %-28s %5d GETs (%5.1f%%)  p50 %8.1f ms  p99 %8.1f ms%n", SUITE, config, kind, report.count(key),
                        gets == 0 ? 0 : 100.0 * report.count(key) / gets, report.latencyQuantile(key, 0.5) / 1e6,
                        report.latencyQuantile(key, 0.99) / 1e6);
            }
            double queued = metric(management, "layerfold_restore_queue_wait_seconds_count") - queuedBefore;
            System.out.printf("%s %s: rebuild memory %.0f MiB: %.0f rebuilds started, %.0f of them waited over 10 ms for memory,"
                            + " %.1f s waited in all%n", SUITE, config, metric(management, "layerfold_restore_memory_capacity_bytes") / (1 << 20),
                    queued, queuedSlowerThan(management, 0.01) - queuedSlowBefore,
                    metric(management, "layerfold_restore_queue_wait_seconds_sum") - queuedSecondsBefore);
            if (!config.equals("off")) {
                // What the copies take, apart from layers pushed during the replay that the worker has not reached yet. At
                // most a minute: layers hot when taken are put back for hot-deferral (10 min), which a full drain would wait out.
                boolean drained = settle(management, 60);
                System.out.printf("%s %s: stored %.1f MB at the end of the replay, %.1f MB a minute later (%s)%n", SUITE, config,
                        stored / 1e6, storedBytes(registry.dataDir()) / 1e6, drained ? "backlog drained"
                                : "backlog left: " + metric(management, "layerfold_dedup_backlog") + " layers");
            }
            report.problems().stream().limit(3).forEach(problem -> System.out.println(SUITE + " " + config + ": " + problem));
            int waited = report.count("GET blob [" + REBUILT + "]");
            return new Measured(gets, report.latencyQuantile("GET blob", 0.5), report.latencyQuantile("GET blob", 0.95),
                    report.latencyQuantile("GET blob", 0.99), report.latencyQuantile("GET blob [" + INTACT + "]", 0.99),
                    gets == 0 ? 0 : (double) waited / gets, gets == 0 ? 0 : Math.max(0, rebuilt - ahead) / gets, stored,
                    report.failures(), Map.copyOf(measuredGets), replayer.pushedSizes());
        }
    }

    /** Rebuilds that waited longer than {@code seconds} for rebuild memory: the count less the histogram's bucket at or under it. */
    private double queuedSlowerThan(URI management, double seconds) throws IOException, InterruptedException {
        String name = "layerfold_restore_queue_wait_seconds";
        double count = metric(management, name + "_count");
        double within = 0;
        double bestLe = -1;
        for (String line : scrape(management).lines().filter(l -> l.startsWith(name + "_bucket{")).toList()) {
            int le = line.indexOf("le=\"");
            double bound = Double.parseDouble(line.substring(le + 4, line.indexOf('"', le + 4)).replace("+Inf", "Infinity"));
            if (bound <= seconds && bound >= bestLe) {
                within = bound > bestLe ? 0 : within;
                bestLe = bound;
                within += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return count - within;
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
        settle(management, 1200);
    }

    /** Waits at most {@code seconds} for the registry to deduplicate every layer pushed so far; whether it did. */
    private boolean settle(URI management, int seconds) throws IOException, InterruptedException {
        HttpResponse<String> settled = http.send(HttpRequest.newBuilder(management.resolve("/actuator/dedup"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(seconds + 60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":" + seconds + "}")).build(), HttpResponse.BodyHandlers.ofString());
        if (settled.statusCode() != 200) {
            throw new IOException("POST /actuator/dedup answered " + settled.statusCode() + ": " + settled.body());
        }
        return settled.body().replace(" ", "").contains("\"settled\":true");
    }

    private String scrape(URI management) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(management.resolve("/actuator/prometheus")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The sum of a metric's series, as Prometheus spells it. */
    private double metric(URI management, String name) throws IOException, InterruptedException {
        return scrape(management).lines().filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
