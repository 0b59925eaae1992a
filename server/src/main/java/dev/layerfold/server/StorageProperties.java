package dev.layerfold.server;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.storage.*}: where and in which backends the registry keeps its data. Every
 * property also comes from the environment, e.g. {@code LAYERFOLD_STORAGE_PATH}.
 *
 * @param path the data directory of the embedded backends
 * @param blob the blob backend: {@code filesystem} stores blobs under {@code <path>/blobs}
 * @param metadata the metadata backend: {@code embedded} keeps it in SQLite at {@code <path>/metadata.db}
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
}
