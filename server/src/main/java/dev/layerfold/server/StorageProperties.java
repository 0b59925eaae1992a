package dev.layerfold.server;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.storage.*}: where and in which backends the registry keeps its data.
 *
 * @param path the data directory of the embedded backends (env {@code LAYERFOLD_STORAGE_PATH})
 * @param blob the blob backend: {@code filesystem} stores blobs under {@code <path>/blobs}
 * @param metadata the metadata backend: {@code embedded} keeps it in SQLite at {@code <path>/metadata.db}
 */
@ConfigurationProperties("layerfold.storage")
public record StorageProperties(
        @DefaultValue("./data") Path path,
        @DefaultValue("filesystem") String blob,
        @DefaultValue("embedded") String metadata) {
}
