package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * klauspost/compress/zstd's streaming Writer as one compress release builds it: src/test/zstdgen's
 * {@code klauspost LEVEL} mode built by {@code go build -modfile=compress-VERSION.mod} (Go fetches the
 * release through the module proxy). Where Go cannot build it the test is aborted, loudly; under
 * CI=true it fails.
 */
public final class KlauspostZstdOracle {

    private static final Path SOURCES = ReferenceTools.sources("zstdgen");
    /**
     * For each generation ported, compress releases it is tested against: for 1.18.0 the ends of the
     * range whose sources differ from 1.18.0's only in form (1.17.8 added the RLE block, tested on its
     * own, 1.20.3 changed how a table is chosen) and the releases podman and containerd pin.
     */
    public static final Map<KlauspostSettings.Release, List<String>> RELEASES = Map.of(
            KlauspostSettings.Release.COMPRESS_1_17_7, List.of("1.17.7"),
            KlauspostSettings.Release.COMPRESS_1_18_0, List.of("1.17.9", "1.17.11", "1.18.0", "1.20.2"),
            KlauspostSettings.Release.COMPRESS_1_20_3, List.of("1.20.3", "1.20.4"));
    private static final Map<String, Path> BUILT = new HashMap<>();

    private KlauspostZstdOracle() {
    }

    /** compress 1.18.0's Writer's frame for {@code input} at EncoderLevel {@code level}, with GOMAXPROCS {@code threads}. */
    public static byte[] compress(int level, int threads, byte[] input) throws IOException, InterruptedException {
        return compress("1.18.0", level, threads, input);
    }

    /** As above, compress {@code version}'s Writer (src/test/zstdgen/compress-VERSION.mod pins it). */
    public static byte[] compress(String version, int level, int threads, byte[] input) throws IOException, InterruptedException {
        return run(version, threads, input, List.of("klauspost", Integer.toString(level)));
    }

    /** compress {@code version}'s Writer at {@code level}, {@code input} written with a Flush at each of {@code flushes} (content offsets, ascending). */
    public static byte[] compressFlushing(String version, int level, byte[] input, long[] flushes) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("klauspost-flush", Integer.toString(level)));
        Arrays.stream(flushes).mapToObj(Long::toString).forEach(arguments::add);
        return run(version, 1, input, arguments);
    }

    private static byte[] run(String version, int threads, byte[] input, List<String> arguments) throws IOException, InterruptedException {
        Path in = Files.createTempFile("klauspost-input", ".tar");
        Path out = Files.createTempFile("klauspost-output", ".zst");
        try {
            Files.write(in, input);
            List<String> command = new ArrayList<>(List.of(binary(version).toString()));
            command.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.PIPE);
            builder.environment().put("GOMAXPROCS", Integer.toString(threads));
            Process process = builder.start();
            byte[] errors = process.getErrorStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IOException("zstdgen " + String.join(" ", arguments) + " failed: " + new String(errors, StandardCharsets.UTF_8));
            }
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    /**
     * compress {@code version}'s Writer at {@code level} fed through io.Copy (its ReadFrom) from a pipe,
     * so that inputs of any size pass; its frame is read as it comes.
     */
    public static Process stream(String version, int level) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(List.of(binary(version).toString(), "klauspost-stream", Integer.toString(level)))
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("GOMAXPROCS", "2");
        return builder.start();
    }

    private static synchronized Path binary(String version) throws IOException, InterruptedException {
        Path binary = BUILT.get(version);
        if (binary != null) {
            return binary;
        }
        String modfile = "compress-" + version + ".mod";
        binary = Path.of("target", "go-reference", "zstdgen-compress-" + version).toAbsolutePath();
        Files.createDirectories(binary.getParent());
        Process go = new ProcessBuilder("go", "build", "-modfile=" + modfile, "-o", binary.toString(), ".")
                .directory(SOURCES.toFile()).redirectErrorStream(true).start();
        String output = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (go.waitFor() != 0) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("building zstdgen with " + modfile + " failed: " + output);
            }
            Assumptions.abort("ZSTDGEN ORACLE UNAVAILABLE, klauspost/compress/zstd " + version + " NOT VERIFIED: " + output);
        }
        BUILT.put(version, binary);
        return binary;
    }
}
