package dev.layerfold.server;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code layerfold.dedup.*}: whether and how pushed layers are deduplicated. Every property also
 * comes from the environment, e.g. {@code LAYERFOLD_DEDUP_MODE}.
 *
 * @param mode      {@code all}: every layer the codec reproduces is stored as unique files plus a
 *                  recipe; {@code off}: nothing is queued or deduplicated (layers deduplicated
 *                  earlier are still restored)
 * @param workers   dedup worker threads in this process; 0 runs none here (another process's workers
 *                  take the queue), so a process can serve the API only
 * @param scratch   local directory where a worker spools a layer's new files ({@code dedup/}) and
 *                  layers being restored are spooled for their readers ({@code restore/}); default:
 *                  {@code <storage path>/scratch}
 * @param zstdLevel compression level of stored files
 * @param packSize  target size of a pack of unique files
 * @param yieldAt   workers start no new layer while this many registry requests are in flight
 *                  (0: one per core)
 */
@ConfigurationProperties("layerfold.dedup")
public record DedupProperties(
        @DefaultValue("all") Mode mode,
        @DefaultValue("1") int workers,
        Path scratch,
        @DefaultValue("3") int zstdLevel,
        @DefaultValue("64MB") DataSize packSize,
        @DefaultValue("0") int yieldAt) {

    public enum Mode { OFF, ALL }

    int yieldThreshold() {
        return yieldAt > 0 ? yieldAt : Runtime.getRuntime().availableProcessors();
    }
}
