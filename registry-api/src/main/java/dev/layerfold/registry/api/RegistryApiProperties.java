package dev.layerfold.registry.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Limits of the distribution API ({@code layerfold.api.*}).
 *
 * @param maxManifestSize manifests larger than this are refused with 413; the spec asks registries to
 *     accept at least 4 MiB
 * @param maxPageSize the most tags or repositories one list response holds; longer lists are paged
 *     with {@code Link} headers
 * @param requestMemory the heap request data may occupy at once ({@link MemoryBudget}); by default a
 *     quarter of the maximum heap
 */
@ConfigurationProperties("layerfold.api")
public record RegistryApiProperties(
        @DefaultValue("4MB") DataSize maxManifestSize,
        @DefaultValue("1000") int maxPageSize,
        DataSize requestMemory) {

    public RegistryApiProperties {
        if (maxManifestSize.toBytes() <= 0 || maxManifestSize.toBytes() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("layerfold.api.max-manifest-size must be between 1 byte and 2 GB, was "
                    + maxManifestSize);
        }
        if (requestMemory == null) {
            requestMemory = DataSize.ofBytes(Runtime.getRuntime().maxMemory() / 4);
        }
        if (requestMemory.toBytes() < maxManifestSize.toBytes()) {
            throw new IllegalArgumentException("layerfold.api.request-memory (" + requestMemory
                    + ") must hold at least one manifest of layerfold.api.max-manifest-size (" + maxManifestSize + ")");
        }
        if (maxPageSize < 1) {
            throw new IllegalArgumentException("layerfold.api.max-page-size must be at least 1, was " + maxPageSize);
        }
    }
}
