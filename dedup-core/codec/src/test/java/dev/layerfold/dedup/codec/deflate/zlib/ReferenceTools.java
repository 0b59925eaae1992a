package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/**
 * Finds the reference programs (python3 for zlib, pigz, Go) on the PATH. A missing one skips the
 * calling test with a loud message on the console, except under CI ({@code CI=true}), where it fails
 * it: there the references are mandatory ({@code .ci/run} installs them).
 */
public final class ReferenceTools {

    /**
     * The forked test JVM's own standard error, which Maven shows on its console; {@code System.err}
     * is captured into report files nobody reads.
     */
    private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
            StandardCharsets.UTF_8);
    private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();

    private ReferenceTools() {
    }

    /**
     * A path under the codec's test sources (the Go, C and Python reference programs): the module's
     * own {@code src/test}, or the directory {@code layerfold.codec.test-sources} names, which the poms
     * of modules that borrow the codec's oracles set.
     */
    public static Path sources(String first, String... more) {
        return Path.of(System.getProperty("layerfold.codec.test-sources", "src/test")).resolve(Path.of(first, more));
    }

    /** The executable named {@code name} on the PATH, or aborts (fails, under CI) the calling test. */
    public static Path require(String name, String whatIsNotVerified) {
        Optional<Path> found = find(name, List.of());
        if (found.isPresent()) {
            return found.get();
        }
        throw missing("REFERENCE `" + name + "` NOT ON PATH, " + whatIsNotVerified + " NOT VERIFIED", name);
    }

    /** The executable named {@code name} on the PATH or in {@code extraDirs}, in that order. */
    public static Optional<Path> find(String name, List<Path> extraDirs) {
        Stream<Path> pathDirs = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(Path::of);
        return Stream.concat(pathDirs, extraDirs.stream()).map(dir -> dir.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    /**
     * Says on the console (once per message) that a reference is missing, and returns what the
     * calling test throws: an error under CI, an abort (a skip) elsewhere.
     *
     * @param debianPackage what {@code .ci/run} installs to provide it
     */
    public static RuntimeException missing(String message, String debianPackage) {
        if (isCi()) {
            return new IllegalStateException(message + " (CI=true: the reference is mandatory; .ci/run installs "
                    + debianPackage + ")");
        }
        announce(message);
        return new TestAbortedException(message);
    }

    /** Prints the message on the console once per test JVM. */
    public static void announce(String message) {
        System.err.println(message);
        if (ANNOUNCED.add(message)) {
            CONSOLE.println("[WARNING] " + message + " (tests that need it are skipped)");
        }
    }

    public static boolean isCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
