package dev.layerfold.e2e;

import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests the one Layerfold process of the run: started on first use from the packaged jar with
 * its heap capped at 256 MiB (so a registry that buffered blobs would fail the large-blob test), and
 * stopped, its data deleted, when the run ends. Tests keep apart by using their own repositories.
 */
final class LayerfoldExtension implements ParameterResolver {

    static final String MAX_HEAP = "256m";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LayerfoldExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RegistryProcess.class;
    }

    @Override
    public RegistryProcess resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .computeIfAbsent(SharedRegistry.class, key -> SharedRegistry.start(), SharedRegistry.class)
                .registry();
    }

    /** The shared process and its data directory; JUnit closes it when the run ends. */
    private record SharedRegistry(RegistryProcess registry, Path dataDir) implements AutoCloseable {

        static SharedRegistry start() {
            try {
                Path target = Path.of("target");
                Files.createDirectories(target);
                Path dataDir = Files.createTempDirectory(target.toAbsolutePath(), "e2e-layerfold-data-");
                return new SharedRegistry(LayerfoldProcess.start(MAX_HEAP, dataDir, target.resolve("registry-logs")),
                        dataDir);
            } catch (IOException e) {
                throw new UncheckedIOException("could not start Layerfold", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting Layerfold", e);
            }
        }

        @Override
        public void close() throws Exception {
            registry.close();
            try (Stream<Path> files = Files.walk(dataDir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
