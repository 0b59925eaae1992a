package dev.layerfold.dedup.codec.zstd.klauspost;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * klauspost/compress/zstd's streaming Writer as one compress release builds it: src/test/zstdgen's
 * {@code klauspost LEVEL} mode built by {@code go build -modfile=compress-VERSION.mod} (Go fetches the
 * release through the module proxy). Where Go cannot build it the test is aborted, loudly; under
 * CI=true it fails.
 */
public final class KlauspostZstdOracle {

    private static final Path SOURCES = Path.of("src", "test", "zstdgen");
    private static final Map<KlauspostSettings.Release, String> MODFILES = Map.of(KlauspostSettings.Release.COMPRESS_1_18_0, "compress-1.18.0.mod");
    private static final Map<KlauspostSettings.Release, Path> BUILT = new EnumMap<>(KlauspostSettings.Release.class);

    private KlauspostZstdOracle() {
    }

    /** The Writer's frame for {@code input} at EncoderLevel {@code level}, with GOMAXPROCS {@code threads}. */
    public static byte[] compress(KlauspostSettings.Release release, int level, int threads, byte[] input) throws IOException,
            InterruptedException {
        Path in = Files.createTempFile("klauspost-input", ".tar");
        Path out = Files.createTempFile("klauspost-output", ".zst");
        try {
            Files.write(in, input);
            ProcessBuilder builder = new ProcessBuilder(List.of(binary(release).toString(), "klauspost", Integer.toString(level)))
                    .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.PIPE);
            builder.environment().put("GOMAXPROCS", Integer.toString(threads));
            Process process = builder.start();
            byte[] errors = process.getErrorStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IOException("zstdgen klauspost failed: " + new String(errors, StandardCharsets.UTF_8));
            }
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    private static synchronized Path binary(KlauspostSettings.Release release) throws IOException, InterruptedException {
        Path binary = BUILT.get(release);
        if (binary != null) {
            return binary;
        }
        binary = Path.of("target", "go-reference", "zstdgen-" + release.name()).toAbsolutePath();
        Files.createDirectories(binary.getParent());
        Process go = new ProcessBuilder("go", "build", "-modfile=" + MODFILES.get(release), "-o", binary.toString(), ".")
                .directory(SOURCES.toFile()).redirectErrorStream(true).start();
        String output = new String(go.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (go.waitFor() != 0) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("building zstdgen with " + MODFILES.get(release) + " failed: " + output);
            }
            Assumptions.abort("ZSTDGEN ORACLE UNAVAILABLE, klauspost/compress/zstd " + release + " NOT VERIFIED: " + output);
        }
        BUILT.put(release, binary);
        return binary;
    }
}
