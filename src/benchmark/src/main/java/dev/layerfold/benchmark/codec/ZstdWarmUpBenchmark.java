package dev.layerfold.benchmark.codec;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Issue 14 for klauspost/compress/zstd frames: how often a segment resumed at a block boundary by a
 * warm-up of W bytes ({@link KlauspostZstdEncoder#resumedSegment}) writes the Writer's own bytes for
 * the 4 MiB after it, and what the warm-up costs against encoding those 4 MiB (the CPU a restart
 * point adds to each segment of a parallel restore). Points every 2 MiB from 8 MiB on (a full
 * window before them), on 32 MiB of tar of /usr/share (text), of /usr/lib (binaries) and of random
 * bytes, at every level of compress 1.20.3. The reference is the port's own frame, which its tests
 * prove equal to the Go Writer's.
 */
public final class ZstdWarmUpBenchmark implements Benchmark {

    private static final String SUITE = "zstd-warmup";
    private static final int SIZE = 32 << 20;
    private static final int FIRST_POINT = 8 << 20;
    private static final int POINT_STEP = 2 << 20;
    private static final int SEGMENT = 4 << 20;
    private static final int[] WARM_UPS = {256 << 10, 1 << 20, 4 << 20};
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws IOException {
        byte[] random = new byte[SIZE];
        new Random(14).nextBytes(random);
        measure(report, "/usr/share", ZlibBenchmark.tarOf("usr/share", SIZE));
        measure(report, "/usr/lib", ZlibBenchmark.tarOf("usr/lib", SIZE));
        measure(report, "random", random);
    }

    private static void measure(BenchmarkReport report, String data, byte[] input) throws IOException {
        for (int level : new int[] {KlauspostSettings.SPEED_FASTEST, KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.SPEED_BETTER,
                KlauspostSettings.SPEED_BEST}) {
            KlauspostSettings settings = new KlauspostSettings(level, KlauspostSettings.Release.COMPRESS_1_20_3);
            List<Integer> blockEnds = new ArrayList<>();
            byte[] frame = frame(settings, input, blockEnds);
            for (int warmUp : WARM_UPS) {
                int verified = 0;
                List<Double> costs = new ArrayList<>();
                for (int point = FIRST_POINT; point + SEGMENT <= input.length; point += POINT_STEP) {
                    ByteArrayOutputStream segment = new ByteArrayOutputStream(SEGMENT);
                    int history = warmUp + settings.blockSize();
                    long start = THREADS.getCurrentThreadCpuTime();
                    KlauspostZstdEncoder encoder = KlauspostZstdEncoder.resumedSegment(settings, input, point - history, history, warmUp, point - history, segment);
                    long warmed = THREADS.getCurrentThreadCpuTime();
                    encoder.write(input, point, SEGMENT);
                    long encoded = THREADS.getCurrentThreadCpuTime();
                    costs.add((double) (warmed - start) / (encoded - warmed));
                    int from = blockEnds.get(point / settings.blockSize() - 1);
                    int to = blockEnds.get((point + SEGMENT) / settings.blockSize() - 1);
                    if (Arrays.equals(segment.toByteArray(), 0, segment.size(), frame, from, to)) {
                        verified++;
                    }
                }
                String metric = data + " level " + level + " W " + (warmUp >> 10) + " KiB";
                report.value(SUITE, metric + ": points verified", "%", new double[] {100.0 * verified / costs.size()});
                report.value(SUITE, metric + ": warm-up / 4 MiB", "x", costs.stream().mapToDouble(Double::doubleValue).toArray());
            }
        }
    }

    /** The Writer's frame, noting where each block ends (each goes to the sink in one write, the first with the header). */
    private static byte[] frame(KlauspostSettings settings, byte[] input, List<Integer> blockEnds) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(input.length);
        OutputStream blocks = new OutputStream() {
            @Override
            public void write(int b) {
                bytes.write(b);
            }

            @Override
            public void write(byte[] data, int offset, int length) {
                bytes.write(data, offset, length);
                blockEnds.add(bytes.size());
            }
        };
        try (KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(settings, blocks)) {
            encoder.write(input, 0, input.length);
            encoder.finish();
        }
        return bytes.toByteArray();
    }
}
