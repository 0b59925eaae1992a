package dev.layerfold.benchmark.codec;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.GoPrograms;
import dev.layerfold.benchmark.WorkDirectory;
import dev.layerfold.dedup.codec.deflate.klauspost.FlateRelease;
import dev.layerfold.dedup.codec.deflate.klauspost.PgzipEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The pgzip port against klauspost/pgzip itself, built against each klauspost/compress release
 * the port reproduces that containers/image's tools pin (src/test/pgzipref, its {@code -bench} mode):
 * containers/image's settings (the default level, 1 MiB blocks) and level 9, on the {@code goflate}
 * suite's tar of /usr/share. MB per CPU second on both sides: the port's one thread against every
 * thread of the Go process, since pgzip compresses its blocks on several goroutines.
 */
public final class PgzipBenchmark implements Benchmark {

    private static final int BLOCK_SIZE = PgzipEncoder.DEFAULT_BLOCK_SIZE;
    private static final Map<FlateRelease, String> MODFILES = Map.of(
            FlateRelease.COMPRESS_1_15_12, "compress-1.15.12.mod",
            FlateRelease.COMPRESS_1_18_0, "compress-1.18.0.mod",
            FlateRelease.COMPRESS_1_20_3, "go.mod");

    @Override
    public String name() {
        return "pgzip";
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        Path work = Files.createTempDirectory("pgzip-bench");
        try {
            byte[] data = Arrays.copyOf(GoFlateBenchmark.tarOfSystemFiles(), 32 << 20);
            Path input = work.resolve("usr-share.tar");
            Files.write(input, data);
            for (FlateRelease release : new FlateRelease[] {FlateRelease.COMPRESS_1_15_12, FlateRelease.COMPRESS_1_18_0, FlateRelease.COMPRESS_1_20_3}) {
                Path pgzipref = GoPrograms.build("pgzipref", ".", work.resolve("pgzipref-" + release), "local",
                        "-modfile=" + MODFILES.get(release));
                for (int level : new int[] {-1, 9}) {
                    int rounds = level == 9 ? 3 : 5;
                    for (int warmUp = 0; warmUp < JIT_WARM_UP_ROUNDS; warmUp++) {
                        GoFlateBenchmark.compress(PgzipEncoder.create(OutputStream.nullOutputStream(), level, BLOCK_SIZE, release), data);
                    }
                    double[] ours = new double[rounds];
                    double[] go = new double[rounds];
                    for (int round = 0; round < rounds; round++) {
                        ours[round] = GoFlateBenchmark.compress(PgzipEncoder.create(OutputStream.nullOutputStream(), level, BLOCK_SIZE, release), data);
                        go[round] = measureGo(pgzipref, input, level);
                    }
                    report.compare(name(), String.format("%s level %d tar %d MiB", release, level, data.length >> 20), "MB/cpu-s",
                            ours, go, "pgzip", true);
                }
            }
        } finally {
            WorkDirectory.deleteRecursively(work);
        }
    }

    /** One round of pgzip compressing {@code input}, timed inside the Go process: MB per CPU second. */
    private static double measureGo(Path pgzipref, Path input, int level) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(pgzipref.toString(), "-bench", "1", Integer.toString(level),
                Integer.toString(BLOCK_SIZE), input.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", builder.command()) + " failed: " + output);
        }
        return Double.parseDouble(output.strip());
    }
}
