package dev.layerfold.registry.manifest;

import java.util.List;

/**
 * What a retention run removed, or (dry run) would remove.
 *
 * @param tags       {@code repository:tag} of each tag removed
 * @param manifests  {@code repository@digest} of each manifest removed
 * @param bytesFreed the bytes no manifest would reference any more (layers at their pushed size), which
 *                   the garbage collector then reclaims
 */
public record RetentionReport(boolean dryRun, List<String> tags, List<String> manifests, long bytesFreed) {
    public RetentionReport {
        tags = List.copyOf(tags);
        manifests = List.copyOf(manifests);
    }
}
