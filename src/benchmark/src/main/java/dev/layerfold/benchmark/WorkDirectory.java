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

    /** Deletes {@code dir} and everything below it. */
    public static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
