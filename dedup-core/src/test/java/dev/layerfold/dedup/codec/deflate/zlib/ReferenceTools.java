package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.opentest4j.TestAbortedException;

/**
 * Finds the reference programs (python3 for zlib, pigz) on the PATH. A missing one skips the calling
 * test with a loud message, except under CI ({@code CI=true}), where it fails it: there the references
 * are mandatory ({@code .ci/run} installs them).
 */
public final class ReferenceTools {

    private ReferenceTools() {
    }

    /** The executable named {@code name} on the PATH, or aborts (fails, under CI) the calling test. */
    public static Path require(String name, String whatIsNotVerified) {
        Optional<Path> found = find(name);
        if (found.isPresent()) {
            return found.get();
        }
        String message = "REFERENCE `" + name + "` NOT ON PATH, " + whatIsNotVerified + " NOT VERIFIED";
        System.err.println(message);
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(message + " (CI=true: the reference is mandatory; .ci/run installs it)");
        }
        throw new TestAbortedException(message);
    }

    private static Optional<Path> find(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
