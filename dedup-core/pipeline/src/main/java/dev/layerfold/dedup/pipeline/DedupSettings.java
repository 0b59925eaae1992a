package dev.layerfold.dedup.pipeline;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How the dedup pipeline stores what it keeps.
 *
 * @param scratch   local directory for spooling a layer's new files while it is split
 * @param zstdLevel compression level of stored files
 * @param packSize  target size of a pack object
 * @param claimTime how long a claim on a file lasts before another worker may store it instead
 * @param limits    what one layer may cost before it is left intact
 */
public record DedupSettings(Path scratch, int zstdLevel, long packSize, Duration claimTime, DedupLimits limits) {
}
