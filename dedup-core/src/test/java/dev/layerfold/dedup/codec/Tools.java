package dev.layerfold.dedup.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    /** Runs a shell script in {@code dir}. */
    static void sh(Path dir, String script) throws IOException, InterruptedException {
        run(dir, "bash", "-euo", "pipefail", "-c", script);
    }
}
