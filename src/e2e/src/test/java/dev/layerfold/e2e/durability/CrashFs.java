package dev.layerfold.e2e.durability;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.opentest4j.TestAbortedException;

/**
 * The file system of {@code src/e2e/crashfs/crashfs.c}, mounted: a pass-through FUSE file system that,
 * when unmounted, forgets what a power loss may forget (file data not fsync'ed, directory entries whose
 * directory was not fsync'ed). Built with gcc against libfuse3 on first use; {@code .ci/run} installs
 * {@code gcc}, {@code pkg-config}, {@code libfuse3-dev} and {@code fuse3}.
 */
final class CrashFs implements AutoCloseable {

    private static final Path SOURCE = Path.of("crashfs", "crashfs.c");
    private static final Duration MOUNT_TIMEOUT = Duration.ofSeconds(20);

    private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
            StandardCharsets.UTF_8);

    private final Process process;
    private final Path mountPoint;
    private final Path log;
    private boolean unmounted;

    private CrashFs(Process process, Path mountPoint, Path log) {
        this.process = process;
        this.mountPoint = mountPoint;
        this.log = log;
    }

    /**
     * Builds the program into {@code target}. Where FUSE cannot run here (no {@code /dev/fuse}, no
     * {@code fusermount3}, no compiler or libfuse3), says so on the console, and fails under CI=true
     * but skips on a developer machine.
     */
    static Path build(Path target) throws IOException, InterruptedException {
        List<String> missing = new ArrayList<>();
        if (!Files.isReadable(Path.of("/dev/fuse")) || !Files.isWritable(Path.of("/dev/fuse"))) {
            missing.add("/dev/fuse (readable and writable by this user)");
        }
        for (String tool : List.of("fusermount3", "gcc", "pkg-config")) {
            if (run(List.of("sh", "-c", "command -v " + tool)) != 0) {
                missing.add(tool);
            }
        }
        if (missing.isEmpty() && run(List.of("pkg-config", "--exists", "fuse3")) != 0) {
            missing.add("libfuse3 headers (pkg-config fuse3)");
        }
        if (!missing.isEmpty()) {
            unusable("the power-loss test cannot run its FUSE file system: missing " + missing
                    + "; install gcc pkg-config libfuse3-dev fuse3 (.ci/run does) on a machine with /dev/fuse");
        }
        Files.createDirectories(target);
        Path program = target.resolve("crashfs");
        Path log = target.resolve("crashfs-build.log");
        int built = new ProcessBuilder("sh", "-c", "gcc -Wall -O2 -o '" + program + "' '" + SOURCE.toAbsolutePath()
                + "' $(pkg-config fuse3 --cflags --libs)")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start().waitFor();
        if (built != 0) {
            throw new IllegalStateException("building " + SOURCE + " failed: " + Files.readString(log));
        }
        return program;
    }

    /** Says so on Maven's console (the forked JVM's own stderr; System.err goes to report files). */
    private static void unusable(String message) {
        CONSOLE.println("[WARNING] " + message);
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(message + " (CI=true: this test is mandatory)");
        }
        throw new TestAbortedException(message);
    }

    /** Mounts {@code backing} at {@code mountPoint}, everything in it counting as synced. */
    static CrashFs mount(Path program, Path backing, Path pool, Path mountPoint, Path log)
            throws IOException, InterruptedException {
        for (Path dir : List.of(backing, pool, mountPoint)) {
            Files.createDirectories(dir);
        }
        Process process = new ProcessBuilder(program.toString(), backing.toString(), pool.toString(),
                mountPoint.toString(), "-f").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        CrashFs fs = new CrashFs(process, mountPoint, log);
        long deadline = System.nanoTime() + MOUNT_TIMEOUT.toNanos();
        while (!fs.isMounted()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                fs.close();
                unusable("crashfs did not mount " + mountPoint + " (FUSE unusable here?): " + Files.readString(log));
            }
            Thread.sleep(50); // polling for the mount to appear, as for a server to listen
        }
        return fs;
    }

    private boolean isMounted() throws IOException {
        String target = " " + mountPoint.toAbsolutePath() + " ";
        return Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8).stream()
                .anyMatch(line -> line.contains(target) && line.contains("fuse"));
    }

    /**
     * The power loss: unmounts, and waits until crashfs has put back only what was synced. Whoever had
     * files open on it must be gone (killed) first.
     */
    void powerLoss() throws IOException, InterruptedException {
        if (run(List.of("fusermount3", "-u", mountPoint.toString())) != 0) {
            throw new IllegalStateException("fusermount3 -u " + mountPoint + " failed; crashfs log: " + Files.readString(log));
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("crashfs did not exit after its unmount: " + Files.readString(log));
        }
        unmounted = true;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (!unmounted && process.isAlive()) {
            run(List.of("fusermount3", "-u", "-z", mountPoint.toString()));
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor();
    }
}
