package dev.layerfold.e2e.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds a program the tests and benchmarks drive (skopeo, crane, the reference registry, Go) on PATH
 * or in extra directories, such as where {@code go install} puts it.
 */
public final class Executables {

    private Executables() {
    }

    /** @throws IllegalStateException naming the program and how to install it, if it is nowhere */
    public static Path find(String name, List<Path> extraDirs, String howToInstall) {
        Stream<Path> pathDirs = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(Path::of);
        return Stream.concat(pathDirs, extraDirs.stream())
                .map(dir -> dir.resolve(name))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(name + " is neither on PATH nor in " + extraDirs
                        + "; install it: " + howToInstall));
    }
}
