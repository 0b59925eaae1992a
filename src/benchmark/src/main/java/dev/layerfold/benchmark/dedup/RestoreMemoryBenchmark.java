package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.management.ObjectName;

/**
 * What restores hold on the heap (issue 26): for each encoder family, a deduplicated layer restored
 * whole, from a restart point near its end (a {@code Range} request), and four distinct layers of the
 * family at once, while a sampler takes the live heap (a class histogram, which collects first) every
 * {@link #SAMPLE_MILLIS} ms. Each line gives the largest live heap seen above the baseline taken
 * before the restores, per restore, and the classes that made most of it. The restores run as the
 * server runs them ({@link EmbeddedDedup}: the restore pool, its segment pool, the fetchers), with the
 * rebuild memory set by {@code layerfold.benchmark.rebuild-memory} (the pom: what the server derives for a 1 GiB heap).
 * {@code layerfold.benchmark.restore-memory.producers} picks families, {@code .scale} the layer size.
 */
public final class RestoreMemoryBenchmark implements Benchmark {

    private static final String SUITE = "restore-memory";
    private static final double SCALE = Double.parseDouble(System.getProperty("layerfold.benchmark.restore-memory.scale", "1"));
    private static final List<String> PRODUCERS = List.of(System.getProperty("layerfold.benchmark.restore-memory.producers",
            "go-1,go-6,go127-6,jdk-6,gzip-6,pigz-6,pgzip,zstd-3,zstd-5,zstd-10,libzstd-3,libzstd-19").split(","));
    private static final long TAR_BYTES = 96L << 20;
    private static final int AT_ONCE = 4;
    private static final long SAMPLE_MILLIS = 300;

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-restore-memory-");
        try {
            LayerMaker maker = LayerMaker.in(work);
            long size = Math.max(8L << 20, (long) (TAR_BYTES * SCALE));
            List<Path> files = snapshot(LayerOfSystemFiles.systemFiles(size, Math.min(size / 4, 32L << 20)), work.resolve("files"));
            for (String label : PRODUCERS) {
                Producer producer = Producer.labelled(label);
                if (!maker.canMake(producer)) {
                    System.out.println(SUITE + ": cannot make " + label + " layers here; left out");
                    continue;
                }
                try (EmbeddedDedup store = EmbeddedDedup.create(work)) {
                    List<Digest> layers = new ArrayList<>();
                    long blobBytes = 0;
                    for (int i = 0; i < AT_ONCE; i++) {
                        // The same files built at other times: distinct layers (other tar headers) whose files dedup stores once.
                        ProducedLayer layer = maker.make(label + "-" + i, files, Instant.parse("2026-02-01T00:00:00Z").plusSeconds(i), producer);
                        store.push(layer);
                        store.deduplicate(layer);
                        layers.add(layer.digest());
                        blobBytes = layer.blob().length;
                        if (i == 0) {
                            System.out.println(SUITE + ", " + layer);
                        }
                    }
                    measure(label, store, layers, blobBytes, report);
                }
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    /**
     * Copies the system files into {@code into}, so that every family's layers hold the same files even
     * if a package is installed or removed while the suite runs (it runs for many minutes).
     */
    private static List<Path> snapshot(List<Path> files, Path into) throws IOException {
        List<Path> copies = new ArrayList<>();
        for (Path file : files) {
            Path copy = into.resolve(file.getRoot().relativize(file).toString());
            Files.createDirectories(copy.getParent());
            Files.copy(file, copy);
            copies.add(copy);
        }
        return copies;
    }

    private static void measure(String label, EmbeddedDedup store, List<Digest> layers, long blobBytes, BenchmarkReport report)
            throws Exception {
        // Warm the JIT and the page cache, so that compiled code and class metadata are in the baseline.
        readAll(store.restore(layers.getFirst()));
        Peak whole = sample(label + " whole", () -> readAll(store.restore(layers.getFirst())), 1);
        Peak range = sample(label + " Range last MB", () -> readAll(store.resume(layers.getFirst(), blobBytes - (1 << 20))), 1);
        Peak together = sample(label + " " + AT_ONCE + " at once", () -> {
            try (ExecutorService clients = Executors.newFixedThreadPool(layers.size())) {
                List<Future<Long>> reads = new ArrayList<>();
                for (Digest layer : layers) {
                    reads.add(clients.submit(() -> readAll(store.restore(layer))));
                }
                long total = 0;
                for (Future<Long> read : reads) {
                    total += read.get();
                }
                return total;
            }
        }, layers.size());
        double reserved = store.restorer().heapBound(layers.getFirst()).orElseThrow() / (double) (1 << 20);
        System.out.printf("%-14s %s: a whole restore reserves %.1f MiB (its bound) and held at most %.1f MiB%n", SUITE, label, reserved,
                whole.perRestoreMib());
        report.value(SUITE, label + " one whole restore, reserved (bound)", "MiB", new double[] {reserved});
        report.value(SUITE, label + " one whole restore, live heap", "MiB", new double[] {whole.perRestoreMib()});
        report.value(SUITE, label + " one Range restore from a point, live heap", "MiB", new double[] {range.perRestoreMib()});
        report.value(SUITE, label + " " + AT_ONCE + " restores at once, live heap per restore", "MiB", new double[] {together.perRestoreMib()});
    }

    /** The largest live heap above the baseline while {@code work} ran, divided by {@code restores}. */
    private record Peak(long bytes, int restores, String topClasses) {
        double perRestoreMib() {
            return bytes / (double) restores / (1 << 20);
        }
    }

    private static Peak sample(String what, Callable<Long> work, int restores) throws Exception {
        long baseline = liveHeap(null);
        long[] peak = {0};
        String[] top = {""};
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                StringBuilder histogram = new StringBuilder();
                long live = liveHeap(histogram);
                if (live > peak[0]) {
                    peak[0] = live;
                    top[0] = histogram.toString();
                }
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long start = System.nanoTime();
        work.call();
        double seconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();
        sampler.join();
        long above = Math.max(0, peak[0] - baseline);
        System.out.printf("%-14s %s: %.1f s, live heap at most %.1f MiB above the baseline of %.1f MiB; largest classes then:%n%s", SUITE, what,
                seconds, above / 1048576.0, baseline / 1048576.0, top[0]);
        return new Peak(above, restores, top[0]);
    }

    /** The heap's live bytes, from a class histogram (which collects first); its first rows into {@code top} if given. */
    private static long liveHeap(StringBuilder top) {
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            String[] lines = histogram.split("\n");
            if (top != null) {
                for (int i = 2; i < Math.min(lines.length, 12); i++) {
                    top.append("    ").append(lines[i]).append('\n');
                }
            }
            for (int i = lines.length - 1; i >= 0; i--) {
                if (lines[i].startsWith("Total")) {
                    String[] fields = lines[i].trim().split("\\s+");
                    return Long.parseLong(fields[2]);
                }
            }
            throw new IllegalStateException("no Total line in the class histogram");
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("the class histogram could not be taken", e);
        }
    }

    private static long readAll(InputStream in) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long read = 0;
        try (in) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                read += n;
            }
        }
        return read;
    }
}
