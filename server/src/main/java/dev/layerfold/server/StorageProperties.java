package dev.layerfold.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.storage.*}: where and in which backends the registry keeps its data. Every
 * property also comes from the environment, e.g. {@code LAYERFOLD_STORAGE_PATH}.
 *
 * @param path the data directory of the embedded backends
 * @param blob the blob backend: {@code filesystem} stores blobs under {@code <path>/blobs}, {@code s3} in a bucket
 * @param metadata the metadata backend: {@code embedded} keeps it in SQLite at {@code <path>/metadata.db},
 *     {@code redis} indexes it in Redis with its records in the bucket
 * @param abandonedUploadAge uploads untouched for this long are removed, in whichever blob backend
 * @param sweepInterval how often the blob backend is searched for abandoned uploads
 */
@ConfigurationProperties("layerfold.storage")
public record StorageProperties(
        @DefaultValue("./data") Path path,
        @DefaultValue("filesystem") String blob,
        @DefaultValue("embedded") String metadata,
        @DefaultValue("24h") Duration abandonedUploadAge,
        @DefaultValue("1h") Duration sweepInterval) {

    private static final List<String> BLOB_BACKENDS = List.of("filesystem", "s3");
    private static final List<String> METADATA_BACKENDS = List.of("embedded", "redis");

    /** A mistyped backend would otherwise surface as a missing bean, far from its cause. */
    public StorageProperties {
        if (!BLOB_BACKENDS.contains(blob)) {
            throw new IllegalArgumentException("layerfold.storage.blob=" + blob + " is not a blob backend; use one of " + BLOB_BACKENDS);
        }
        if (!METADATA_BACKENDS.contains(metadata)) {
            throw new IllegalArgumentException("layerfold.storage.metadata=" + metadata
                    + " is not a metadata backend; use one of " + METADATA_BACKENDS);
        }
    }
}
