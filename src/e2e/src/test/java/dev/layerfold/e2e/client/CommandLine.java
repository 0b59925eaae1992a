package dev.layerfold.e2e.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command-line client to completion within a time limit. A failure (non-zero exit or
 * timeout) fails the test with the command line and everything the command printed.
 */
public final class CommandLine {

    /** What a successful command printed. */
    public record Result(byte[] stdout, String stderr) {
        public String stdoutText() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    private CommandLine() {
    }

    public static Result run(Duration timeout, List<String> command) throws IOException, InterruptedException {
        return run(timeout, command, Map.of());
    }

    /** Like {@link #run(Duration, List)}, with {@code environment} added to the inherited variables. */
    public static Result run(Duration timeout, List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        return run(timeout, command, environment, null);
    }

    /** Like {@link #run(Duration, List, Map)}, in {@code directory} (this JVM's when null). */
    public static Result run(Duration timeout, List<String> command, Map<String, String> environment, Path directory)
            throws IOException, InterruptedException {
        // Output goes to files, not pipes: a chatty client can never block on a full pipe.
        Path stdout = Files.createTempFile("command-", ".out");
        Path stderr = Files.createTempFile("command-", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile());
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(describe(command) + " did not finish within " + timeout.toSeconds() + " s"
                        + printed(stdout, stderr));
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(describe(command) + " exited with " + process.exitValue() + printed(stdout, stderr));
            }
            return new Result(Files.readAllBytes(stdout), Files.readString(stderr));
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    private static String describe(List<String> command) {
        return "`" + String.join(" ", command) + "`";
    }

    private static String printed(Path stdout, Path stderr) throws IOException {
        return "\n--- stderr:\n" + Files.readString(stderr) + "\n--- stdout:\n" + Files.readString(stdout);
    }
}
