package dev.layerfold.server;

import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.sweep.AbandonedUploadSweeper;
import java.io.IOException;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded storage backends, the default: blobs on the local file system and metadata in
 * SQLite, both under {@code layerfold.storage.path}. Other backends are chosen with
 * {@code layerfold.storage.blob} and {@code layerfold.storage.metadata} and wired elsewhere; the
 * sweeper of abandoned uploads, wired here, serves them all.
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

    /**
     * One per process, whichever backends: with Redis (whose {@link Leases} bean is then present) the
     * processes sharing a bucket take turns; on a local directory each sweeps on its own.
     */
    @Bean(destroyMethod = "close")
    AbandonedUploadSweeper abandonedUploadSweeper(BlobStore blobs, MetadataStore metadata, ObjectProvider<Leases> leases,
                                                  StorageProperties storage) {
        Leases shared = leases.getIfAvailable();
        AbandonedUploadSweeper sweeper = shared == null
                ? new AbandonedUploadSweeper(blobs, metadata, storage.abandonedUploadAge(), Clock.systemUTC())
                : new AbandonedUploadSweeper(blobs, metadata, shared, storage.abandonedUploadAge(), Clock.systemUTC());
        sweeper.start(storage.sweepInterval());
        return sweeper;
    }
}
