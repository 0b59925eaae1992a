package dev.layerfold.e2e.clients;

import dev.layerfold.e2e.client.CommandLine;
import dev.layerfold.e2e.process.Executables;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * A client program of the matrix, found on PATH or where {@code go install} puts it, run with its own
 * configuration (credentials, caches) in variables the test sets, never the user's.
 * <p>
 * A missing client fails the test when {@code CI=true} ({@code .ci/run} installs every one of them), and
 * elsewhere skips it with a {@code [WARNING]} line naming what is missing and how to install it.
 */
final class ClientTool {

    static final Duration TIMEOUT = Duration.ofMinutes(3);

    private final String name;
    private final String executable;
    private final Map<String, String> environment;
    private final Path directory;

    private ClientTool(String name, String executable, Map<String, String> environment, Path directory) {
        this.name = name;
        this.executable = executable;
        this.environment = Map.copyOf(environment);
        this.directory = directory;
    }

    /** Finds {@code name}, or fails (CI) or skips (elsewhere) naming {@code install}. */
    static ClientTool require(String name, String install) {
        Path goBin = Path.of(System.getProperty("user.home"), "go", "bin");
        try {
            return new ClientTool(name, Executables.find(name, List.of(goBin), install + " (as .ci/run does)").toString(),
                    Map.of(), null);
        } catch (IllegalStateException missing) {
            if (inCi()) {
                throw new AssertionError("CI=true and a client of the matrix is missing: " + missing.getMessage(), missing);
            }
            System.out.println("[WARNING] " + name.toUpperCase() + " NOT TESTED: " + missing.getMessage());
            Assumptions.abort(name + " is not installed: " + missing.getMessage());
            throw new AssertionError("unreachable");
        }
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** This client with {@code variables} set on top of the ones it already had. */
    ClientTool with(Map<String, String> variables) {
        Map<String, String> merged = new HashMap<>(environment);
        merged.putAll(variables);
        return new ClientTool(name, executable, merged, directory);
    }

    /** This client run in {@code workingDirectory}, where relative file names resolve. */
    ClientTool in(Path workingDirectory) {
        return new ClientTool(name, executable, environment, workingDirectory);
    }

    String name() {
        return name;
    }

    /** Runs {@code executable arguments...}; a non-zero exit fails the test with all it printed. */
    CommandLine.Result run(String... arguments) throws IOException, InterruptedException {
        return run(List.of(arguments));
    }

    CommandLine.Result run(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(arguments);
        return CommandLine.run(TIMEOUT, command, environment, directory);
    }

    /** What {@link #run} prints on standard output, as text without the trailing line break. */
    String output(String... arguments) throws IOException, InterruptedException {
        return run(arguments).stdoutText().strip();
    }
}
