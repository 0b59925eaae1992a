package dev.layerfold.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The scratch directory a suite writes its inputs, data and logs to, removed when the suite ends. */
public final class WorkDirectory {

    private WorkDirectory() {
    }

    /** The bytes of every file below {@code dir}. */
    public static long bytesUnder(Path dir) throws IOException {
        long total = 0;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                total += Files.size(file);
            }
        }
        return total;
    }

    /** Deletes {@code dir} and everything below it. */
    public static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
