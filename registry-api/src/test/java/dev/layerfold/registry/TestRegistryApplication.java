package dev.layerfold.registry;

import dev.layerfold.storage.blob.BlobContent;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.embedded.SqliteMetadataStore;
import dev.layerfold.storage.filesystem.FilesystemBlobStore;
import dev.layerfold.storage.gc.GcIndex;
import dev.layerfold.storage.gc.GcStorage;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisMetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import dev.layerfold.storage.testserver.RedisServer;
import dev.layerfold.storage.testserver.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The registry API over real stores that live as long as the (shared, cached) test application
 * context: the embedded ones on a temporary directory, or, with {@code layerfold.test.backend=s3-redis},
 * a bucket of its own on the shared S3 test server and a namespace of its own on the shared Redis.
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

    /** The stores of one backend, closed with the context. */
    record Backend(BlobStore blobs, MetadataStore metadata, AutoCloseable bucket) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            metadata.close();
            bucket.close();
        }
    }

    @Bean(destroyMethod = "close")
    StorageDirectory storageDirectory() throws IOException {
        return new StorageDirectory(Files.createTempDirectory("layerfold-registry-api-test"));
    }

    @Bean(destroyMethod = "close")
    Backend backend(StorageDirectory storage, @Value("${layerfold.test.backend:embedded}") String backend) throws IOException {
        if (backend.equals("s3-redis")) {
            S3Server server = S3Server.shared();
            S3Settings settings = new S3Settings(server.endpoint(), server.region(), server.newBucket(), true,
                    server.accessKey(), server.secretKey(), false, S3Settings.DEFAULT_PART_SIZE);
            S3Bucket bucket = S3Bucket.connect(settings);
            return new Backend(new S3BlobStore(bucket, settings), new RedisMetadataStore(
                    RedisConnection.open(RedisServer.shared().url(), false), bucket, RedisServer.newNamespace()), bucket);
        }
        return new Backend(new FilesystemBlobStore(storage.path().resolve("blobs")),
                new SqliteMetadataStore(storage.path().resolve("metadata.db")), () -> { });
    }

    @Bean
    BlobStore blobStore(Backend backend) {
        return backend.blobs();
    }

    @Bean
    BlobContent blobContent(BlobStore blobs) {
        return BlobContent.intact(blobs);
    }

    /** Closed with the backend. */
    @Bean(destroyMethod = "")
    MetadataStore metadataStore(Backend backend) {
        return backend.metadata();
    }

    @Bean
    GcIndex gcIndex(MetadataStore metadata, GcHooks hooks) {
        return hooks.observe(((GcStorage) metadata).gcIndex());
    }

    @Bean
    GcHooks gcHooks() {
        return new GcHooks();
    }

    @Bean
    RecordedPushes recordedPushes() {
        return new RecordedPushes();
    }

    @Bean
    RecordedPulls recordedPulls() {
        return new RecordedPulls();
    }
}
