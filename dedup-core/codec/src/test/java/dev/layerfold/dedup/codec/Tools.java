package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.zlib.ReferenceTools;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs the real tools (GNU tar, python3, pigz, gzip, Go) that make test layers. */
final class Tools {

    private Tools() {
    }

    /** Runs {@code command} in {@code dir}; fails with the tool's output if it exits non-zero. */
    static void run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(command)).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + new String(output, StandardCharsets.UTF_8));
        }
    }

    /**
     * Builds the Go oracle in {@code src/test/<module>} into {@code target/go-reference/<module>}; aborts
     * the test where Go cannot build it (fails it under CI), naming what is then not verified.
     */
    static Path goOracle(String module, String unverified) throws IOException, InterruptedException {
        return goOracle(module, null, unverified);
    }

    /**
     * As {@link #goOracle(String, String)}, built with Go release {@code toolchain} (e.g. {@code go1.27.3},
     * which {@code go} fetches through the module proxy), or the installed Go if null.
     */
    static Path goOracle(String module, String toolchain, String unverified) throws IOException, InterruptedException {
        return build(module, toolchain == null ? module : module + "-" + toolchain,
                (toolchain == null ? "" : "GOTOOLCHAIN=" + toolchain + " ") + "go build", unverified);
    }

    /**
     * As {@link #goOracle(String, String)}, built against {@code src/test/<module>/<variant>.mod} and
     * its .sum instead of go.mod (other releases of the modules it calls), with these build tags.
     */
    static Path goOracleVariant(String module, String variant, String tags, String unverified) throws IOException, InterruptedException {
        return build(module, module + "-" + variant, "go build -modfile=" + variant + ".mod -tags '" + tags + "'", unverified);
    }

    private static Path build(String module, String name, String goBuild, String unverified) throws IOException, InterruptedException {
        Path binary = Path.of("target", "go-reference", name).toAbsolutePath();
        Files.createDirectories(binary.getParent());
        try {
            sh(ReferenceTools.sources(module).toAbsolutePath(), goBuild + " -o '" + binary + "' .");
        } catch (IOException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw e;
            }
            Assumptions.abort(module.toUpperCase() + " ORACLE UNAVAILABLE, " + unverified + " NOT VERIFIED: " + e.getMessage());
        }
        return binary;
    }

    /** Runs a shell script in {@code dir}. */
    static void sh(Path dir, String script) throws IOException, InterruptedException {
        run(dir, "bash", "-euo", "pipefail", "-c", script);
    }
}
