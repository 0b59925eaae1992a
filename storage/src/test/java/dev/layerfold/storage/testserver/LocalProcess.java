package dev.layerfold.storage.testserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A server process started by the tests: its own temporary directory and log, stopped (and the
 * directory deleted) when the test JVM exits.
 */
final class LocalProcess {

    private final String name;
    private final Process process;
    private final Path directory;
    private final Path log;

    private LocalProcess(String name, Process process, Path directory, Path log) {
        this.name = name;
        this.process = process;
        this.directory = directory;
        this.log = log;
    }

    /** Starts {@code command} (built from the fresh directory) with its output going to a log file there. */
    static LocalProcess start(String name, Path directory, List<String> command) {
        Path log = directory.resolve(name + ".log");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            LocalProcess started = new LocalProcess(name, process, directory, log);
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "stop-" + name));
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.getFirst() + "): is it installed?", e);
        }
    }

    static Path newDirectory(String name) {
        try {
            return Files.createTempDirectory("layerfold-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A port nobody listens on right now; the server started next binds it. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the server accepts TCP connections on {@code port}, failing with its log if it died. */
    void awaitPort(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logText());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(Duration.ofMillis(50));
            }
        }
        stop();
        throw new IllegalStateException(name + " did not listen on port " + port + " within " + timeout + ":\n" + logText());
    }

    private String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Kills the process with SIGKILL, as a crash or power loss would, and keeps its directory. */
    void kill() {
        try {
            process.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + name, e);
        }
    }

    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteRecursively(directory);
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a server", e);
        }
    }
}
