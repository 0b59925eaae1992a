package dev.layerfold.server;

import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.filesystem.FilesystemUploadSweeper;
import dev.layerfold.storage.metadata.MetadataStore;
import java.io.IOException;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded storage backends, the default: blobs on the local file system and metadata in
 * SQLite, both under {@code layerfold.storage.path}. Other backends are chosen with
 * {@code layerfold.storage.blob} and {@code layerfold.storage.metadata} and wired elsewhere.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StorageProperties.class)
public class StorageConfiguration {

    @Bean
    @ConditionalOnProperty(name = "layerfold.storage.blob", havingValue = "filesystem", matchIfMissing = true)
    FilesystemBlobStore filesystemBlobStore(StorageProperties storage) throws IOException {
        return new FilesystemBlobStore(storage.path());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "layerfold.storage.metadata", havingValue = "embedded", matchIfMissing = true)
    MetadataStore embeddedMetadataStore(StorageProperties storage) throws IOException {
        return new SqliteMetadataStore(storage.path().resolve("metadata.db"));
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "layerfold.storage.blob", havingValue = "filesystem", matchIfMissing = true)
    FilesystemUploadSweeper filesystemUploadSweeper(FilesystemBlobStore blobs, MetadataStore metadata,
                                                    StorageProperties storage) {
        FilesystemUploadSweeper sweeper = new FilesystemUploadSweeper(blobs, metadata, storage.abandonedUploadAge(),
                Clock.systemUTC());
        sweeper.start(storage.sweepInterval());
        return sweeper;
    }
}
