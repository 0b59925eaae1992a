package dev.layerfold.benchmark.codec;

import dev.layerfold.benchmark.Benchmark;
import dev.layerfold.benchmark.BenchmarkReport;
import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzEncoder;
import dev.layerfold.dedup.codec.deflate.pigz.PigzSettings;
import dev.layerfold.dedup.codec.deflate.zlib.GnuGzipEncoder;
import dev.layerfold.dedup.codec.deflate.zlib.ZlibEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;

/**
 * The pure-Java zlib port against the native zlib in the JDK ({@link Deflater}, same level, same
 * input), the pigz port against {@code pigz -p 1} (one thread, as the port runs) and {@code pigz -p 2}
 * (the stream the port writes: blocks primed with the previous one's end; CPU of both threads) and the GNU gzip
 * port against {@code gzip}, on 64 MiB of
 * tar of system files. Both sides get the input in 64 KiB pieces and discard the output; pigz reads
 * the input from a file. Throughput is per CPU second (the thread's CPU time, pigz's user plus system
 * time as bash's {@code times} reports it), so other load on a shared machine does not skew the ratio.
 */
public final class ZlibBenchmark implements Benchmark {

    private static final int TAR_SIZE = 64 << 20;
    private static final int PIECE = 1 << 16;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** bash's {@code times}: the second line holds the children's user and system time. */
    private static final Pattern CHILD_TIMES = Pattern.compile("(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s\\s*$");

    @Override
    public String name() {
        return "zlib";
    }

    @Override
    public void run(BenchmarkReport report) throws Exception {
        byte[] tar = tarOfSystemFiles();
        String size = (tar.length >> 20) + " MiB tar";
        for (int level : new int[] {1, 6, 9}) {
            int rounds = level == 9 ? 3 : 5;
            double[] ours = measure(tar, rounds, sink -> ZlibEncoder.create(sink, level));
            double[] jdk = measureJdk(tar, level, rounds);
            report.compare(name(), "zlib level " + level + " " + size, "MB/cpu-s", ours, jdk, "jdk", true);
        }
        System.out.println("zlib       ZlibEncoder output equals java.util.zip.Deflater's at level 6: "
                + Arrays.equals(deflateAll(tar, sink -> ZlibEncoder.create(sink, 6)), jdkDeflate(tar, 6)));

        Path input = Files.createTempFile("zlib-bench", ".tar");
        try {
            Files.write(input, tar);
            double[] ours = measure(tar, 3, sink -> PigzEncoder.create(sink, 9, PigzSettings.DEFAULT_BLOCK_SIZE));
            double[] pigz = measureTool("pigz -c -9 -b 128 -p 1", input, tar.length, 3);
            report.compare(name(), "pigz -9 -b 128 " + size, "MB/cpu-s", ours, pigz, "pigz-p1", true);
            // The port writes what pigz writes with several threads (each block primed with the last
            // 32 KiB), which -p 1's one stream never does: -p 2 is the same work, counted over its threads.
            double[] pigzThreads = measureTool("pigz -c -9 -b 128 -p 2", input, tar.length, 3);
            report.compare(name(), "pigz -9 -b 128 " + size + ", same framing", "MB/cpu-s", ours, pigzThreads, "pigz-p2", true);
            for (int level : new int[] {1, 6, 9}) {
                double[] port = measure(tar, 3, sink -> GnuGzipEncoder.create(sink, level));
                double[] gzip = measureTool("gzip -c -" + level, input, tar.length, 3);
                report.compare(name(), "gzip -" + level + " " + size, "MB/cpu-s", port, gzip, "gzip", true);
            }
        } finally {
            Files.deleteIfExists(input);
        }
    }

    /** MB per CPU second (10^6 bytes) per round, after one round that lets the JIT compile the encoder. */
    private static double[] measure(byte[] data, int rounds, Function<OutputStream, DeflateEncoder> encoders)
            throws IOException {
        double[] mbPerSecond = new double[rounds];
        for (int round = -1; round < rounds; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            DeflateEncoder encoder = encoders.apply(OutputStream.nullOutputStream());
            for (int offset = 0; offset < data.length; offset += PIECE) {
                encoder.write(data, offset, Math.min(PIECE, data.length - offset));
            }
            encoder.finish();
            if (round >= 0) {
                mbPerSecond[round] = data.length / 1e6 / ((THREADS.getCurrentThreadCpuTime() - start) / 1e9);
            }
        }
        return mbPerSecond;
    }

    private static double[] measureJdk(byte[] data, int level, int rounds) {
        double[] mbPerSecond = new double[rounds];
        byte[] out = new byte[PIECE];
        for (int round = -1; round < rounds; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            Deflater deflater = new Deflater(level, true);
            for (int offset = 0; offset < data.length; offset += PIECE) {
                deflater.setInput(data, offset, Math.min(PIECE, data.length - offset));
                while (!deflater.needsInput()) {
                    deflater.deflate(out);
                }
            }
            deflater.finish();
            while (!deflater.finished()) {
                deflater.deflate(out);
            }
            deflater.end();
            if (round >= 0) {
                mbPerSecond[round] = data.length / 1e6 / ((THREADS.getCurrentThreadCpuTime() - start) / 1e9);
            }
        }
        return mbPerSecond;
    }

    /** A tool compressing the input file to /dev/null: MB per its user plus system CPU second. */
    static double[] measureTool(String command, Path input, long length, int rounds) throws IOException, InterruptedException {
        double[] mbPerSecond = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            Process bash = new ProcessBuilder("bash", "-c", command + " < \"$1\" > /dev/null && times",
                    "bash", input.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String times = new String(bash.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            Matcher children = CHILD_TIMES.matcher(times.strip());
            if (bash.waitFor() != 0 || !children.find()) {
                throw new IOException(command + " failed or bash printed no times: " + times);
            }
            double cpuSeconds = Integer.parseInt(children.group(1)) * 60 + Double.parseDouble(children.group(2))
                    + Integer.parseInt(children.group(3)) * 60 + Double.parseDouble(children.group(4));
            mbPerSecond[round] = length / 1e6 / cpuSeconds;
        }
        return mbPerSecond;
    }

    private static byte[] deflateAll(byte[] data, Function<OutputStream, DeflateEncoder> encoders) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2);
        DeflateEncoder encoder = encoders.apply(out);
        encoder.write(data, 0, data.length);
        encoder.finish();
        return out.toByteArray();
    }

    private static byte[] jdkDeflate(byte[] data, int level) {
        Deflater deflater = new Deflater(level, true);
        deflater.setInput(data);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2);
        byte[] buf = new byte[PIECE];
        while (!deflater.finished()) {
            out.write(buf, 0, deflater.deflate(buf));
        }
        deflater.end();
        return out.toByteArray();
    }

    /** A tar of /usr/share as the system's tar writes it, cut to 64 MiB: real layer content. */
    static byte[] tarOfSystemFiles() throws IOException {
        return tarOf("usr/share", TAR_SIZE);
    }

    /** The first {@code size} bytes of a tar of {@code directory} (relative to /), in name order. */
    static byte[] tarOf(String directory, int size) throws IOException {
        Process tar = new ProcessBuilder("tar", "--sort=name", "-cf", "-", "-C", "/", directory)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (InputStream in = tar.getInputStream()) {
            return in.readNBytes(size);
        } finally {
            tar.destroy();
        }
    }
}
