package dev.layerfold.e2e.dedup;

import dev.layerfold.e2e.distributed.Backends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** Kill -9 during dedup on the embedded backend: one process, its files and SQLite in its data directory. */
class KillDuringDedupEmbeddedTest extends KillDuringDedupContract {

    @Override
    Map<String, String> backend() {
        return Backends.embedded();
    }

    @Override
    int nodeCount() {
        return 1;
    }

    @Override
    OptionalLong blobStoreBytes(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.walk(dataDir.resolve("blobs"))) {
            return OptionalLong.of(files.filter(Files::isRegularFile).mapToLong(KillDuringDedupEmbeddedTest::size).sum());
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
