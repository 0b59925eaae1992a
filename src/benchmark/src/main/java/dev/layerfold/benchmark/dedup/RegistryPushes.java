package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import dev.layerfold.benchmark.registry.CurlDownload;
import dev.layerfold.e2e.blob.BlobClient;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * Part 4, through the packaged registry ({@code server/target/layerfold.jar}) started twice at
 * {@code -Xmx256m} on the embedded backend, once with {@code LAYERFOLD_DEDUP_MODE=all} and once with
 * {@code off}: the same images pushed to both, rounds alternating which goes first. A push is
 * acknowledged before dedup, so the target is parity; on two cores, what dedup can cost a push is the
 * CPU its worker takes while the next image arrives (each round's images are pushed back to back, and
 * the dedup registry is settled, untimed, before the other's turn). Each round rebuilds the images
 * (same files, other times: new blobs). Afterwards, the dedup registry must still run at its 256 MiB
 * heap, have deduplicated every layer, and serve each byte for byte, two large restores at once too;
 * and whole-layer pulls through curl compare the rebuilt layers with the same layers served intact by
 * the other registry, as do cold pulls of a whole image of every layer with {@code skopeo copy}.
 */
record RegistryPushes(Path work, LayerMaker maker, long layerSize, int warmup, int rounds) {

    private static final String SUITE = "dedup";
    private static final String HEAP = "256m";
    private static final int IMAGES_PER_ROUND = 2;
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(20);
    private static final String WHOLE_IMAGE = "bench/whole-image";
    /** The dedup registry's mode ({@code -Dlayerfold.benchmark.dedup.pushes.mode}): {@code all}, or {@code budgeted} against off. */
    private static final String MODE = System.getProperty("layerfold.benchmark.dedup.pushes.mode", "all");

    void run(BenchmarkReport report) throws Exception {
        List<Path> all = LayerOfSystemFiles.systemFiles(IMAGES_PER_ROUND * layerSize, 32L << 20);
        List<List<Path>> fileSets = FileSets.ofEqualSize(all, IMAGES_PER_ROUND);
        Producer producer = maker.canMake(Producer.GO_6) ? Producer.GO_6 : Producer.JDK_ZLIB_6;
        Path logs = work.resolve("logs");
        List<Pushed> pushed = new ArrayList<>();
        double[] on = new double[rounds];
        double[] off = new double[rounds];
        double[] settleSeconds = new double[rounds];
        try (RegistryProcess dedupOn = start(MODE, logs); RegistryProcess dedupOff = start("off", logs);
             ImageClient onClient = new ImageClient(dedupOn.baseUri(), dedupOn.managementUri()); ImageClient offClient = new ImageClient(dedupOff.baseUri(), dedupOff.managementUri())) {
            System.out.println("started " + dedupOn + " (dedup " + MODE + ") and " + dedupOff + " (dedup off)");
            for (int round = -warmup; round < rounds; round++) {
                List<ProducedLayer> layers = new ArrayList<>();
                for (int image = 0; image < IMAGES_PER_ROUND; image++) {
                    layers.add(maker.make("image-" + image + "-round-" + (round + warmup), fileSets.get(image),
                            Instant.parse("2026-04-01T00:00:00Z").plus(Duration.ofDays(round + warmup)), producer));
                }
                if (round == -warmup) {
                    layers.forEach(layer -> System.out.println("pushes, " + layer));
                }
                double megabytes = layers.stream().mapToLong(layer -> layer.blob().length).sum() / 1e6;
                double onSeconds = 0;
                double offSeconds = 0;
                for (boolean dedupFirst : (round + warmup) % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                    ImageClient client = dedupFirst ? onClient : offClient;
                    long start = System.nanoTime();
                    for (int image = 0; image < layers.size(); image++) {
                        client.push(repository(image), "round-" + (round + warmup), List.of(layers.get(image)));
                    }
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (dedupFirst) {
                        onSeconds = seconds;
                        long settleStart = System.nanoTime();
                        requireSettled(onClient.settle(SETTLE_TIMEOUT));
                        if (round >= 0) {
                            settleSeconds[round] = (System.nanoTime() - settleStart) / 1e9;
                        }
                    } else {
                        offSeconds = seconds;
                    }
                }
                if (round >= 0) {
                    on[round] = megabytes / onSeconds;
                    off[round] = megabytes / offSeconds;
                }
                for (int image = 0; image < layers.size(); image++) {
                    pushed.add(new Pushed(repository(image), withoutTar(layers.get(image))));
                }
                System.out.println((round >= 0 ? "measured" : "warm-up") + " push round " + (round + warmup + 1) + " of " + (warmup + rounds));
            }
            report.compare(SUITE, "push, dedup " + MODE + " vs off (-Xmx256m)", "MB/s", on, off, "dedup off", true);
            report.value(SUITE, "settling a round's images after its push", "s", settleSeconds);
            checkHeapHeld(dedupOn, onClient, pushed);
            comparePulls(dedupOn, dedupOff, pushed, report);
            compareImagePulls(dedupOn, onClient, dedupOff, offClient, pushed, report);
        }
    }

    /**
     * Whole-layer pulls through {@code curl} (as the registry suite pulls), every pushed layer from both
     * registries, alternating which goes first: rebuilt by the dedup registry, served intact by the other.
     */
    private static void comparePulls(RegistryProcess dedupOn, RegistryProcess dedupOff, List<Pushed> layers, BenchmarkReport report)
            throws Exception {
        double[] restored = new double[layers.size()];
        double[] intact = new double[layers.size()];
        double[] slower = new double[layers.size()];
        for (int i = 0; i < layers.size(); i++) {
            Pushed pushed = layers.get(i);
            double megabytes = pushed.layer().blob().length / 1e6;
            for (boolean fromDedup : i % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                URI uri = (fromDedup ? dedupOn : dedupOff).baseUri()
                        .resolve("/v2/" + pushed.repository() + "/blobs/" + pushed.layer().digest());
                long start = System.nanoTime();
                long size = CurlDownload.discard(uri);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (size != pushed.layer().blob().length) {
                    throw new IllegalStateException(uri + " served " + size + " bytes of " + pushed.layer());
                }
                if (fromDedup) {
                    restored[i] = megabytes / seconds;
                } else {
                    intact[i] = megabytes / seconds;
                }
            }
            slower[i] = intact[i] / restored[i];
        }
        report.compare(SUITE, "pull over HTTP (curl), restored vs intact", "MB/s", restored, intact, "intact", true);
        report.value(SUITE, "pull over HTTP, restored takes intact's", "x", slower);
    }

    /**
     * A whole image pulled cold as users pull it: {@code skopeo copy} to a directory, which fetches
     * several layers at once. One image of every layer pushed (the same blobs, so nothing new to
     * deduplicate), from both registries, alternating which goes first; restored layers are not kept,
     * so each pull from the dedup registry rebuilds all of them.
     */
    private void compareImagePulls(RegistryProcess dedupOn, ImageClient onClient, RegistryProcess dedupOff, ImageClient offClient,
                                   List<Pushed> layers, BenchmarkReport report) throws Exception {
        List<ProducedLayer> all = layers.stream().map(Pushed::layer).toList();
        onClient.push(WHOLE_IMAGE, "all", all);
        offClient.push(WHOLE_IMAGE, "all", all);
        requireSettled(onClient.settle(SETTLE_TIMEOUT));
        double megabytes = all.stream().mapToLong(layer -> layer.blob().length).sum() / 1e6;
        double[] restored = new double[rounds];
        double[] intact = new double[rounds];
        double[] slower = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            for (boolean fromDedup : round % 2 == 0 ? List.of(true, false) : List.of(false, true)) {
                RegistryProcess registry = fromDedup ? dedupOn : dedupOff;
                Path into = work.resolve("pulled-" + round + "-" + fromDedup);
                long start = System.nanoTime();
                skopeoCopy("docker://" + registry.hostAndPort() + "/" + WHOLE_IMAGE + ":all", "dir:" + into);
                double seconds = (System.nanoTime() - start) / 1e9;
                WorkDirectory.deleteRecursively(into);
                if (fromDedup) {
                    restored[round] = megabytes / seconds;
                } else {
                    intact[round] = megabytes / seconds;
                }
            }
            slower[round] = intact[round] / restored[round];
        }
        System.out.printf("%-10s cold image pull: %d layers, %.1f MB compressed, skopeo copy to a directory%n", SUITE, all.size(), megabytes);
        report.compare(SUITE, "cold pull of a whole image (skopeo), dedup " + MODE + " vs off", "MB/s", restored, intact, "dedup off", true);
        report.value(SUITE, "cold pull of a whole image, dedup " + MODE + " takes off's", "x", slower);
    }

    private static void skopeoCopy(String source, String destination) throws Exception {
        Process skopeo = new ProcessBuilder("skopeo", "copy", "--src-tls-verify=false", source, destination).redirectErrorStream(true).start();
        String output = new String(skopeo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (skopeo.waitFor() != 0) {
            throw new IllegalStateException("skopeo copy " + source + " failed: " + output);
        }
    }

    /** A pushed layer and the repository it was pushed to. */
    private record Pushed(String repository, ProducedLayer layer) {
    }

    private static String repository(int image) {
        return "bench/image-" + image;
    }

    private static RegistryProcess start(String mode, Path logs) throws Exception {
        // Restored layers are neither kept as intact copies nor copied into the predictor's tiers, so that
        // every pull of a deduplicated layer is a restore.
        return LayerfoldProcess.start(HEAP, Files.createDirectories(logs.getParent().resolve("registry-" + mode)), logs, List.of(), Map.of(),
                Map.of("LAYERFOLD_DEDUP_MODE", mode, "LAYERFOLD_DEDUP_KEEP_RESTORED", "0s", "LAYERFOLD_PREDICTOR_MODE", "off"));
    }

    /** The tar is only needed to make the layer; the pulls compare digests. */
    private static ProducedLayer withoutTar(ProducedLayer layer) {
        return new ProducedLayer(layer.name(), layer.producer(), layer.blob(), new byte[0], layer.digest());
    }

    private static void requireSettled(JsonNode settled) {
        if (!settled.get("settled").asBoolean()) {
            throw new IllegalStateException("the dedup backlog did not empty within " + SETTLE_TIMEOUT + ": " + settled);
        }
    }

    /** The 256 MiB heap held: the registry runs, deduplicated every layer, and serves each byte for byte. */
    private static void checkHeapHeld(RegistryProcess registry, ImageClient client, List<Pushed> layers) throws Exception {
        JsonNode totals = client.settle(SETTLE_TIMEOUT).get("totals");
        System.out.printf("%-10s dedup registry after the pushes: %s%n", SUITE, totals);
        for (Pushed layer : layers) {
            requireIdentical(client.blobs(), layer);
        }
        List<CompletableFuture<Void>> concurrent = new ArrayList<>();
        for (Pushed layer : layers.subList(layers.size() - 2, layers.size())) {
            concurrent.add(CompletableFuture.runAsync(() -> {
                try {
                    requireIdentical(client.blobs(), layer);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        CompletableFuture.allOf(concurrent.toArray(CompletableFuture[]::new)).join();
        String log = Files.readString(registry.log(), StandardCharsets.UTF_8);
        boolean alive = client.answers() && !log.contains("OutOfMemoryError");
        long deduplicated = totals.get("layersDeduplicated").asLong();
        System.out.printf("%-10s -Xmx%s with dedup on: %s (registry answers and logged no OutOfMemoryError: %s; %d of %d layers "
                + "deduplicated; every pull byte for byte, two at once too)%n", SUITE, HEAP,
                alive && deduplicated == layers.size() ? "held" : "FAILED", alive, deduplicated, layers.size());
        if (!alive || deduplicated != layers.size()) {
            throw new IllegalStateException("dedup at -Xmx" + HEAP + " failed; see " + registry.log());
        }
    }

    private static void requireIdentical(BlobClient blobs, Pushed pushed) throws Exception {
        ProducedLayer layer = pushed.layer();
        BlobClient.PulledBlob pulled = blobs.pull(pushed.repository(), layer.digest().toString());
        if (pulled.size() != layer.blob().length || !pulled.digest().equals(layer.digest().toString())) {
            throw new IllegalStateException(layer + " pulled back from " + pushed.repository() + " as " + pulled);
        }
    }
}
