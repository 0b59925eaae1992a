package dev.layerfold.benchmark;

import dev.layerfold.e2e.process.Executables;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds the Go reference programs kept in {@code dedup-core/codec/src/test}, with the local Go toolchain or a given release. */
public final class GoPrograms {

    private GoPrograms() {
    }

    /** The {@code go} command: on PATH, or in {@code /usr/local/go}. */
    public static Optional<Path> go() {
        try {
            return Optional.of(Executables.find("go", List.of(Path.of("/usr/local/go/bin")), "apt-get install golang-go (as .ci/run does)"));
        } catch (IllegalStateException missing) {
            return Optional.empty();
        }
    }

    /**
     * Builds package {@code pkg} (e.g. {@code ./flatebench}) of the Go module in
     * {@code dedup-core/codec/src/test/<module>}, found from the working directory up, into {@code binary}.
     */
    public static Path build(String module, String pkg, Path binary) throws IOException, InterruptedException {
        return build(module, pkg, binary, "local");
    }

    /**
     * As {@link #build(String, String, Path)}, with the Go release {@code toolchain} (fetched through the
     * module proxy) and more {@code go build} flags (e.g. {@code -modfile=...} to pin other module versions).
     */
    public static Path build(String module, String pkg, Path binary, String toolchain, String... flags) throws IOException, InterruptedException {
        Path go = go().orElseThrow(() -> new IllegalStateException("building " + module + " needs Go (`go` on PATH or /usr/local/go)"));
        List<String> command = new ArrayList<>(List.of(go.toString(), "build"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-o", binary.toString(), pkg));
        ProcessBuilder builder = new ProcessBuilder(command).directory(sources(module).toFile()).redirectErrorStream(true);
        builder.environment().put("GOTOOLCHAIN", toolchain);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", builder.command()) + " failed: " + output);
        }
        return binary;
    }

    private static Path sources(String module) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path sources = dir.resolve("dedup-core/codec/src/test").resolve(module);
            if (Files.isRegularFile(sources.resolve("go.mod"))) {
                return sources;
            }
        }
        throw new IllegalStateException("dedup-core/codec/src/test/" + module + " not found above " + Path.of("").toAbsolutePath());
    }
}
