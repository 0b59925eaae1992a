package dev.layerfold.registry;

import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.predictor.ImageLayers;
import dev.layerfold.storage.predictor.PredictorStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The registry API over the real embedded stores, on a temporary directory that lives as long as
 * the (shared, cached) test application context.
 */
@SpringBootApplication
public class TestRegistryApplication {

    /** A directory deleted with everything in it when the context closes. */
    record StorageDirectory(Path path) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try (Stream<Path> files = Files.walk(path)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    @Bean(destroyMethod = "close")
    StorageDirectory storageDirectory() throws IOException {
        return new StorageDirectory(Files.createTempDirectory("layerfold-registry-api-test"));
    }

    @Bean
    BlobStore blobStore(StorageDirectory storage) throws IOException {
        return new FilesystemBlobStore(storage.path().resolve("blobs"));
    }

    @Bean
    BlobContent blobContent(BlobStore blobs) {
        return BlobContent.intact(blobs);
    }

    /** The predictor's map of manifests to layers, written on push like the server's. */
    @Bean
    ImageLayers imageLayers(MetadataStore metadata) {
        return ((PredictorStorage) metadata).imageLayers();
    }

    @Bean
    RecordedPulls recordedPulls() {
        return new RecordedPulls();
    }

    @Bean(destroyMethod = "close")
    MetadataStore metadataStore(StorageDirectory storage) throws IOException {
        return new SqliteMetadataStore(storage.path().resolve("metadata.db"));
    }
}
