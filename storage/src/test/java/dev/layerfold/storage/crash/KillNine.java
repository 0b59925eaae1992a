package dev.layerfold.storage.crash;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Crash testing with a real process: runs a writer's {@code main} in a child JVM, reads the writes it
 * acknowledges (one line on stdout each, printed only after the store call returned), and kills it
 * with SIGKILL mid-stream. Whatever was acknowledged must be there when the store is reopened.
 */
public final class KillNine {

    private static final long GIVE_UP_SECONDS = 60;

    private KillNine() {
    }

    /** Returns the acknowledged lines, in order, once at least {@code acknowledgements} arrived and the child is dead. */
    public static List<String> killAfter(int acknowledgements, Class<?> writer, Path workDir, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // The writer is short-lived: starting fast matters more than peak speed.
                "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                writer.getName()));
        command.addAll(List.of(args));
        Path stderr = workDir.resolve(writer.getSimpleName() + ".stderr");
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        List<String> acknowledged = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                acknowledged.add(line);
                if (acknowledged.size() >= acknowledgements || System.nanoTime() > deadline) {
                    break;
                }
            }
            // On Linux and macOS destroyForcibly sends SIGKILL: no shutdown hooks, no flushing, no close().
            child.destroyForcibly();
            if (!child.waitFor(GIVE_UP_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child JVM " + child.pid() + " survived SIGKILL");
            }
        } finally {
            child.destroyForcibly();
        }
        if (acknowledged.size() < acknowledgements) {
            throw new IllegalStateException("writer acknowledged only " + acknowledged.size() + " of "
                    + acknowledgements + " writes before it stopped; its stderr:\n" + Files.readString(stderr));
        }
        return acknowledged;
    }
}
