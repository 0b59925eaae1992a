package dev.layerfold.benchmark.dedup;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.benchmark.codec.LayerOfSystemFiles;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.recipe.ZstdRestartPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.function.LongSupplier;

/**
 * Restart points (issue 14): a deduplicated layer's restore on one thread against two (the speed-up),
 * against serving it intact, a {@code Range} request for its last MB against a whole restore, and what
 * finding and verifying the points (the proof encoding in pieces) adds to the dedup worker's CPU. Layers of this machine's system
 * files through the real {@code pigz -6}, Go's {@code compress/gzip} -6 (docker's; built with Go 1.26 and with 1.27) and Go 1.27's -9 (eStargz's), zlib -6 (the
 * JDK's, as Jib writes it) and GNU {@code gzip -6} (and on request klauspost zstd's default level, podman's), and layers of many
 * independent gzip members or zstd frames, restored in units of whole ones: eStargz (Go -9, a member per file) and podman's
 * zstd:chunked (a klauspost frame per file), wall time in
 * process as in {@link RestoreTime}, warm. Sizes scale with {@code layerfold.benchmark.restart.scale};
 * {@code layerfold.benchmark.restart.producers} picks the producers (labels, e.g. {@code go-6}, {@code zlib-6}, {@code gzip-6}).
 */
public final class RestartBenchmark implements Benchmark {

    private static final String SUITE = "restart";
    private static final double SCALE = Double.parseDouble(System.getProperty("layerfold.benchmark.restart.scale", "1"));
    private static final int ROUNDS = Integer.getInteger("layerfold.benchmark.restart.rounds", 3);
    private static final long LAST_MB = 1 << 20;
    /** Which producers' layers to measure (labels, comma-separated): all by default. */
    private static final List<String> PRODUCERS = List.of(System.getProperty("layerfold.benchmark.restart.producers",
            "pigz-6,go-6,go127-6,go127-9,zlib-6,gzip-6,estargz-9,zstd-chunked").split(","));

    /** A layer to measure: its producer's label here (the encoder family and level), the producer, its tar's size. */
    private record Layer(String label, Producer producer, long tarBytes) {
    }

    /**
     * pigz -6 at two sizes; Go -6 (docker, buildkit), zlib -6 and GNU gzip -6, whose points lie inside bytes and carry state values,
     * Go 1.27's -6, whose states are rebuilt by a warm-up, and its -9, whose resumes encode the blocks since the open table was
     * headed again, beside pigz's of the same size; GNU gzip -1, zlib -1 (Python's) and Go -2, whose chains are rebuilt by a warm-up
     * and whose points the proof checks, Go's levels 0 and -2 (stored, HuffmanOnly: a point at every block boundary, nothing
     * to rebuild), Go 1.27's -2 (a table spanning windows, replayed), and klauspost zstd's default level (podman's), whose
     * points carry match-table patches, at two sizes, its SpeedFastest, SpeedBetterCompression and SpeedBestCompression (points whose tables are replayed), and the zstd CLI's -3 and -19 (libzstd with a worker
     * thread, whose points are its jobs' starts), at two sizes, only when asked for by {@code producers}; eStargz and zstd:chunked,
     * restored in units.
     */
    private static final List<Layer> LAYERS = List.of(new Layer("pigz-6", Producer.PIGZ_6, 32L << 20), new Layer("go-6", Producer.GO_6, 32L << 20),
            new Layer("go127-6", Producer.GO127_6, 32L << 20), new Layer("go127-9", Producer.GO127_9, 32L << 20),
            new Layer("zlib-6", Producer.JDK_ZLIB_6, 32L << 20), new Layer("gzip-6", Producer.GNU_GZIP_6, 32L << 20),
            new Layer("pigz-6", Producer.PIGZ_6, 100L << 20),
            new Layer("gzip-1", Producer.GNU_GZIP_1, 32L << 20), new Layer("zlib-1", Producer.PYTHON_ZLIB_1, 32L << 20),
            new Layer("go-2", Producer.GO_2, 32L << 20), new Layer("go-0", Producer.GO_0, 32L << 20),
            new Layer("go--2", Producer.GO_HUFFMAN_ONLY, 32L << 20), new Layer("go127--2", Producer.GO127_HUFFMAN_ONLY, 32L << 20),
            new Layer("estargz-9", Producer.ESTARGZ, 32L << 20), new Layer("zstd-chunked", Producer.ZSTD_CHUNKED, 32L << 20),
            new Layer("zstd-3", Producer.KLAUSPOST_ZSTD_3, 32L << 20), new Layer("zstd-3", Producer.KLAUSPOST_ZSTD_3, 100L << 20),
            new Layer("zstd-1", Producer.KLAUSPOST_ZSTD_1, 32L << 20), new Layer("zstd-5", Producer.KLAUSPOST_ZSTD_5, 32L << 20),
            new Layer("zstd-10", Producer.KLAUSPOST_ZSTD_10, 32L << 20),
            new Layer("libzstd-3", Producer.LIBZSTD_3, 32L << 20), new Layer("libzstd-3", Producer.LIBZSTD_3, 100L << 20),
            new Layer("libzstd-19", Producer.LIBZSTD_19, 32L << 20), new Layer("libzstd-19", Producer.LIBZSTD_19, 100L << 20));

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("layerfold-restart-benchmark-");
        try {
            LayerMaker maker = LayerMaker.in(work);
            for (Layer wanted : LAYERS) {
                if (!PRODUCERS.contains(wanted.label()) || !maker.canMake(wanted.producer())) {
                    continue;
                }
                long size = scaled(wanted.tarBytes());
                List<Path> files = LayerOfSystemFiles.systemFiles(size, Math.min(size / 4, 32L << 20));
                ProducedLayer layer = maker.make(wanted.label(), files, Instant.parse("2026-02-01T00:00:00Z"), wanted.producer());
                System.out.println(SUITE + ", " + layer);
                measure(work, layer, report);
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    private static void measure(Path work, ProducedLayer layer, BenchmarkReport report) throws Exception {
        String name = String.format("%.0f MB %s", layer.tarMegabytes(), layer.name());
        double[] dedupCpu = new double[ROUNDS];
        double[] withoutPoints = new double[ROUNDS];
        double[] oneThread = new double[ROUNDS];
        double[] twoThreads = new double[ROUNDS];
        double[] intact = new double[ROUNDS];
        double[] lastMb = new double[ROUNDS];
        double[] speedUp = new double[ROUNDS];
        double[] timesIntact = new double[ROUNDS];
        double[] cpuSplit = new double[ROUNDS];
        double[] twoThreadsCpu = new double[ROUNDS];
        double[] oneThreadCpu = new double[ROUNDS];
        double[] aloneCpu = new double[ROUNDS];
        double[] besideAnotherCpu = new double[ROUNDS];
        // libzstd compresses on native threads of its own, which the calling thread's clock and the restore threads' do not see.
        boolean nativeThreads = layer.producer().libzstd();
        LongSupplier dedupClock = nativeThreads ? CpuClock::processTotalNanos : CpuClock::nanos;
        System.out.printf("%-10s %s: load average %.1f before the rounds%n", SUITE, name,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (int round = 0; round < ROUNDS; round++) {
            try (EmbeddedDedup one = EmbeddedDedup.create(work, 1); EmbeddedDedup two = EmbeddedDedup.create(work, 2);
                 EmbeddedDedup kept = EmbeddedDedup.create(work); EmbeddedDedup anotherOne = EmbeddedDedup.create(work, 1)) {
                one.push(layer);
                long cpu = dedupClock.getAsLong();
                one.deduplicate(layer);
                dedupCpu[round] = (dedupClock.getAsLong() - cpu) / 1e6;
                // What the proof's pieces cost: the proof as it runs now, less the same proof in one piece.
                cpu = dedupClock.getAsLong();
                Recipe proven = one.proveFromStore(layer.digest());
                long pieces = dedupClock.getAsLong() - cpu;
                cpu = dedupClock.getAsLong();
                one.rebuildFromStore(layer.digest());
                withoutPoints[round] = dedupCpu[round] - (pieces - (dedupClock.getAsLong() - cpu)) / 1e6;
                if (round == 0) {
                    printPoints(name, proven);
                }
                two.push(layer);
                two.deduplicate(layer);
                kept.push(layer);
                RestoreTime.timeMillis(() -> two.restore(layer.digest()), layer); // warms the page cache and the JIT
                Map<Long, Long> before = CpuClock.threadsNamed(EmbeddedDedup.RESTORE_THREADS);
                long processBefore = CpuClock.processTotalNanos();
                oneThread[round] = RestoreTime.timeMillis(() -> one.restore(layer.digest()), layer);
                oneThreadCpu[round] = (CpuClock.processTotalNanos() - processBefore) / 1e6;
                long oneCpu = CpuClock.since(before, EmbeddedDedup.RESTORE_THREADS).stream().mapToLong(Long::longValue).sum();
                before = CpuClock.threadsNamed(EmbeddedDedup.RESTORE_THREADS);
                processBefore = CpuClock.processTotalNanos();
                twoThreads[round] = RestoreTime.timeMillis(() -> two.restore(layer.digest()), layer);
                twoThreadsCpu[round] = (CpuClock.processTotalNanos() - processBefore) / 1e6;
                cpuSplit[round] = (double) oneCpu / CpuClock.since(before, EmbeddedDedup.RESTORE_THREADS).stream().mapToLong(Long::longValue).max().orElseThrow();
                intact[round] = RestoreTime.timeMillis(() -> kept.blobs().open(layer.digest(), 0, -1).orElseThrow(), layer);
                long from = layer.blob().length - LAST_MB;
                lastMb[round] = RestoreTime.timeMillis(() -> two.resume(layer.digest(), from), layer, LAST_MB);
                if (!nativeThreads) {
                    anotherOne.push(layer);
                    anotherOne.deduplicate(layer);
                    aloneCpu[round] = oneCpu / 1e6;
                    besideAnotherCpu[round] = twoRestoresAtOnceCpu(one, anotherOne, layer) / 2e6;
                }
                speedUp[round] = oneThread[round] / twoThreads[round];
                timesIntact[round] = twoThreads[round] / intact[round];
            }
        }
        report.compare(SUITE, name + " restore, 2 threads vs 1", "ms", twoThreads, oneThread, "1 thread", false);
        report.value(SUITE, name + " restore speed-up, 2 threads", "x", speedUp);
        // What two free cores would give, whatever the shared machine runs: the 1-thread restore's CPU over the busiest of the 2 threads'.
        if (nativeThreads) {
            // No thread of ours runs a libzstd segment's compression, so there is no busiest one to divide by: what the segments
            // cost beside a restore in one piece instead, and the wall time's speed-up above, taken where the cores were free.
            report.compare(SUITE, name + " restore process CPU, 2 threads vs 1", "cpu-ms", twoThreadsCpu, oneThreadCpu, "1 thread", false);
        } else {
            report.value(SUITE, name + " restore CPU split, 2 threads (1-thread CPU / busiest thread's)", "x", cpuSplit);
            // What the machine leaves of the split: two cores sharing one cache and memory make each encoding dearer (2 over this ratio).
            report.compare(SUITE, name + " 1-thread restore CPU, beside another at once vs alone", "cpu-ms", besideAnotherCpu, aloneCpu, "alone",
                    false);
        }
        report.compare(SUITE, name + " restore (2 threads) vs intact", "ms", twoThreads, intact, "intact", false);
        report.value(SUITE, name + " restore (2 threads), times intact's", "x", timesIntact);
        report.compare(SUITE, name + " Range last MB vs whole restore", "ms", lastMb, twoThreads, "whole restore (2 threads)", false);
        report.compare(SUITE, name + " dedup CPU, with points vs without", "cpu-ms", dedupCpu, withoutPoints, "without points", false);
    }

    /** The restore threads' CPU, in nanoseconds, of two 1-thread restores of {@code layer} run at once, on threads of their own. */
    private static long twoRestoresAtOnceCpu(EmbeddedDedup one, EmbeddedDedup another, ProducedLayer layer) throws Exception {
        Map<Long, Long> before = CpuClock.threadsNamed(EmbeddedDedup.RESTORE_THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<FutureTask<Double>> restores = List.of(new FutureTask<>(() -> {
            start.await();
            return RestoreTime.timeMillis(() -> one.restore(layer.digest()), layer);
        }), new FutureTask<>(() -> {
            start.await();
            return RestoreTime.timeMillis(() -> another.restore(layer.digest()), layer);
        }));
        restores.forEach(Thread.ofPlatform()::start);
        start.countDown();
        for (FutureTask<Double> restore : restores) {
            restore.get();
        }
        return CpuClock.since(before, EmbeddedDedup.RESTORE_THREADS).stream().mapToLong(Long::longValue).sum();
    }

    /** How many points (restart or unit points) the proof found; for a zstd frame, what its points' patches take against its segments. */
    private static void printPoints(String name, Recipe proven) {
        int points = proven.units().size() + proven.members().stream().mapToInt(m -> m.restartPoints().size()).sum();
        for (ZstdFrame frame : proven.frames()) {
            if (frame instanceof ZstdFrame.Compressed compressed && !compressed.restartPoints().isEmpty()) {
                List<ZstdRestartPoint> framePoints = compressed.restartPoints();
                points += framePoints.size();
                IntSummaryStatistics patches = framePoints.stream().skip(1).mapToInt(p -> p.patch().length).summaryStatistics();
                long segmentInput = (compressed.contentSize() - framePoints.get(1).inputOffset()) / (framePoints.size() - 1);
                System.out.printf("%-10s %s: zstd patches %d-%d bytes (mean %.0f) per point, segments of %.1f MB of tar on average (%.2f%%)%n", SUITE,
                        name, patches.getMin(), patches.getMax(), patches.getAverage(), segmentInput / 1e6, 100 * patches.getAverage() / segmentInput);
                System.out.printf("%-10s %s: its segments dealt out in order to 2 threads, each to the first free, give at most %.2fx%n", SUITE, name,
                        twoThreadBound(compressed));
            }
        }
        System.out.printf("%-10s %s: %d restart points, or units%n", SUITE, name, points);
    }

    /**
     * What 2 threads can give at most if a segment costs its tar's size: few large segments (libzstd's jobs, 32 MiB at -19) leave a
     * thread idle at the end whatever the cores.
     */
    private static double twoThreadBound(ZstdFrame.Compressed frame) {
        List<ZstdRestartPoint> points = frame.restartPoints();
        long[] busy = new long[2];
        for (int i = 0; i < points.size(); i++) {
            long end = i + 1 < points.size() ? points.get(i + 1).inputOffset() : frame.contentSize();
            int free = busy[0] <= busy[1] ? 0 : 1;
            busy[free] += end - points.get(i).inputOffset();
        }
        return (double) frame.contentSize() / Math.max(busy[0], busy[1]);
    }

    private static long scaled(long bytes) {
        return Math.max(8L << 20, (long) (bytes * SCALE));
    }
}
