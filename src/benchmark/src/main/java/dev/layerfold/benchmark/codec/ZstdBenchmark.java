package dev.layerfold.benchmark.codec;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.benchmark.GoPrograms;
import dev.layerfold.dedup.codec.LayerSplitter;
import dev.layerfold.dedup.codec.SplitResult;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.identify.StandardEncoders;
import dev.layerfold.dedup.codec.io.FileSink;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostZstdEncoder;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * zstd layers (issue 10, item 3) on 64 MiB of tar of /usr/share. The rebuild of a libzstd layer
 * (tar skeleton, bodies from memory, zstd-jni's libzstd 1.5.7 single-threaded, the digest check) in
 * MB of tar per CPU second of its thread, against zstd-jni alone compressing the same tar at the same
 * level (the floor of any rebuild through it) and against {@code zstd --single-thread} (the machine's
 * CLI, user plus system time). Then what identification costs a split, against the same split with
 * none: a layer of the machine's zstd CLI (another release than 1.5.7 where it is Debian 12's) and
 * of klauspost/compress 1.15.12's Writer at SpeedFastest (Debian 12's skopeo), which may or may not
 * match a ported generation on the machine's files; where the port matches, compress 1.20.3's Writer
 * at SpeedBestCompression (its sixth candidate) and at the default level (its second), and 1.18.0's
 * default (its first). Last the port alone and the rebuild against
 * the Go Writer of 1.18.0 compressing the same tar in-process (zstdgen's {@code klauspost-bench}: CPU
 * of all its threads, GOMAXPROCS left to Go). Then a zstd:chunked layer of the same tar (containers/storage
 * 1.59.1 at zstd level 3: a frame per file, the last one flushed): identification against none, and
 * its rebuild against the rebuild of the Writer's plain layer.
 */
public final class ZstdBenchmark implements Benchmark {

    private static final String SUITE = "zstd";
    private static final int PIECE = 1 << 16;
    private static final int ROUNDS = 3;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Override
    public String name() {
        return SUITE;
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        byte[] tar = ZlibBenchmark.tarOfSystemFiles();
        String size = (tar.length >> 20) + " MiB tar";
        Path work = Files.createTempDirectory("zstd-bench");
        Path input = Files.write(work.resolve("layer.tar"), tar);
        Path zstdgen = GoPrograms.build("zstdgen", ".", work.resolve("zstdgen"));
        for (int level : new int[] {1, 3, 9}) {
            byte[] layer = tool(List.of(zstdgen.toString(), "libzstd", Integer.toString(level), "-size"), input);
            SplitResult split = new LayerSplitter(StandardEncoders.identifier()).split(new ByteArrayInputStream(layer), FileSink.discarding());
            System.out.println("zstd       level " + level + ": " + split.identifications());
            double[] rebuild = SplitBenchmark.rebuildThroughput(new LayerSplitter(StandardEncoders.identifier()), layer, tar.length / 1e6, 1);
            double[] jni = measureJni(tar, level);
            report.compare(SUITE, "rebuild vs zstd-jni alone, level " + level + " " + size, "MB/cpu-s", rebuild, jni, "zstd-jni", true);
            double[] cli = ZlibBenchmark.measureTool("zstd -q -c --single-thread -" + level, input, tar.length, ROUNDS);
            report.compare(SUITE, "rebuild vs zstd CLI, level " + level + " " + size, "MB/cpu-s", rebuild, cli, "zstd-cli", true);
        }
        identificationCost(report, "zstd CLI -3 (" + cliVersion() + ")", tool(List.of("bash", "-c", "zstd -q -3 -c \"$1\"", "bash", input.toString()), input));
        Path zstdgen11512 = GoPrograms.build("zstdgen", ".", work.resolve("zstdgen-1.15.12"), "local", "-modfile=compress-1.15.12.mod");
        identificationCost(report, "klauspost/compress 1.15.12 zstd SpeedFastest", tool(List.of(zstdgen11512.toString(), "klauspost", "1"), input));
        identificationCost(report, "klauspost/compress 1.20.3 zstd SpeedBestCompression", tool(List.of(zstdgen.toString(), "klauspost", "4"), input));
        identificationCost(report, "klauspost/compress 1.20.3 zstd default level", tool(List.of(zstdgen.toString(), "klauspost", "2"), input));
        Path zstdgen118 = GoPrograms.build("zstdgen", ".", work.resolve("zstdgen-1.18.0"), "local", "-modfile=compress-1.18.0.mod");
        byte[] klauspost = tool(List.of(zstdgen118.toString(), "klauspost", "2"), input);
        identificationCost(report, "klauspost/compress 1.18.0 zstd default level", klauspost);
        double[] go = measureGoWriter(zstdgen118, input);
        report.compare(SUITE, "klauspost port vs Go Writer, compress 1.18.0 default level " + size, "MB/cpu-s", measurePort(tar), go, "klauspost-go",
                true);
        double[] rebuild = SplitBenchmark.rebuildThroughput(new LayerSplitter(StandardEncoders.identifier()), klauspost, tar.length / 1e6,
                JIT_WARM_UP_ROUNDS);
        report.compare(SUITE, "rebuild vs Go Writer, compress 1.18.0 default level " + size, "MB/cpu-s", rebuild, go, "klauspost-go", true);
        Path chunkedgen = GoPrograms.build("chunkedgen", ".", work.resolve("chunkedgen"));
        byte[] chunked = tool(List.of(chunkedgen.toString(), "3"), input);
        identificationCost(report, "zstd:chunked (containers/storage 1.59.1, zstd level 3)", chunked);
        double[] rebuildChunked = SplitBenchmark.rebuildThroughput(new LayerSplitter(StandardEncoders.identifier()), chunked, tar.length / 1e6,
                JIT_WARM_UP_ROUNDS);
        report.compare(SUITE, "rebuild of zstd:chunked vs of the Writer's plain layer, compress 1.18.0 default level " + size, "MB/cpu-s",
                rebuildChunked, rebuild, "klauspost-plain", true);
    }

    /** The port writing the tar in 64 KiB pieces, output dropped: MB per CPU second of this thread. */
    private static double[] measurePort(byte[] tar) throws IOException {
        KlauspostSettings settings = new KlauspostSettings(KlauspostSettings.SPEED_DEFAULT, KlauspostSettings.Release.COMPRESS_1_18_0);
        double[] mbPerSecond = new double[ROUNDS];
        for (int round = -JIT_WARM_UP_ROUNDS; round < ROUNDS; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            try (KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(settings, OutputStream.nullOutputStream())) {
                for (int offset = 0; offset < tar.length; offset += PIECE) {
                    encoder.write(tar, offset, Math.min(PIECE, tar.length - offset));
                }
                encoder.finish();
            }
            if (round >= 0) {
                mbPerSecond[round] = tar.length / 1e6 / ((THREADS.getCurrentThreadCpuTime() - start) / 1e9);
            }
        }
        return mbPerSecond;
    }

    /** klauspost/compress's Writer compressing the file in-process, timed by zstdgen: MB per CPU second of its process. */
    private static double[] measureGoWriter(Path zstdgen, Path input) throws IOException, InterruptedException {
        String output = new String(tool(List.of(zstdgen.toString(), "klauspost-bench", "2", Integer.toString(ROUNDS), input.toString()), input),
                StandardCharsets.UTF_8);
        return output.lines().mapToDouble(Double::parseDouble).toArray();
    }

    private static void identificationCost(BenchmarkReport report, String producer, byte[] layer) throws IOException {
        LayerSplitter identifying = new LayerSplitter(StandardEncoders.identifier());
        LayerSplitter blind = new LayerSplitter(StandardEncoders.identifier(), new ZstdEncoders("none", false));
        double[] with = new double[ROUNDS];
        double[] without = new double[ROUNDS];
        for (int round = -1; round < ROUNDS; round++) {
            long tarBytes = 0;
            long start = THREADS.getCurrentThreadCpuTime();
            SplitResult split = identifying.split(new ByteArrayInputStream(layer), FileSink.discarding());
            long middle = THREADS.getCurrentThreadCpuTime();
            blind.split(new ByteArrayInputStream(layer), FileSink.discarding());
            long end = THREADS.getCurrentThreadCpuTime();
            tarBytes = split.recipe().skeleton().tarSize();
            if (round >= 0) {
                with[round] = tarBytes / 1e6 / ((middle - start) / 1e9);
                without[round] = tarBytes / 1e6 / ((end - middle) / 1e9);
            } else {
                System.out.println("zstd       " + producer + ": " + described(split.identifications()) + "; " + split.unmatchedReason().orElse("reproduced"));
            }
        }
        report.compare(SUITE, "split with identification vs without, " + producer, "MB/cpu-s", with, without, "no identification", true);
    }

    /** A few frames' identifications as they are; a layer of many (zstd:chunked) as how many frames each encoder took after how many candidates. */
    private static String described(List<Identification> identifications) {
        if (identifications.size() <= 4) {
            return identifications.toString();
        }
        return identifications.size() + " frames: " + identifications.stream()
                .collect(Collectors.groupingBy(id -> id.encoder().label() + " after " + id.candidates() + " candidates", TreeMap::new, Collectors.counting()));
    }

    /** zstd-jni's streaming compressor as a program calls it: 64 KiB pieces in direct buffers, output dropped. */
    private static double[] measureJni(byte[] tar, int level) {
        double[] mbPerSecond = new double[ROUNDS];
        ByteBuffer in = ByteBuffer.allocateDirect(PIECE);
        ByteBuffer out = ByteBuffer.allocateDirect(PIECE + 4096);
        for (int round = -1; round < ROUNDS; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            try (ZstdCompressCtx context = new ZstdCompressCtx()) {
                context.setLevel(level);
                context.setChecksum(true);
                context.setPledgedSrcSize(tar.length);
                for (int offset = 0; offset < tar.length; offset += PIECE) {
                    in.clear();
                    in.put(tar, offset, Math.min(PIECE, tar.length - offset)).flip();
                    while (in.hasRemaining()) {
                        context.compressDirectByteBufferStream(out, in, EndDirective.CONTINUE);
                        out.clear();
                    }
                }
                in.clear().flip();
                while (!context.compressDirectByteBufferStream(out, in, EndDirective.END)) {
                    out.clear();
                }
            }
            if (round >= 0) {
                mbPerSecond[round] = tar.length / 1e6 / ((THREADS.getCurrentThreadCpuTime() - start) / 1e9);
            }
        }
        return mbPerSecond;
    }

    private static byte[] tool(List<String> command, Path input) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectInput(input.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed");
        }
        return output;
    }

    private static String cliVersion() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("zstd", "--version").redirectErrorStream(true).start();
        String banner = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        process.waitFor();
        return banner.replaceFirst("(?s).*(v\\d+\\.\\d+\\.\\d+).*", "$1");
    }
}
