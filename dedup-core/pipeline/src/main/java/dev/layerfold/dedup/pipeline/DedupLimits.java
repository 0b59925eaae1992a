package dev.layerfold.dedup.pipeline;

import java.time.Duration;

/**
 * What one layer may cost the dedup worker before it is left intact: hostile or broken layers (a
 * gzip bomb, millions of tiny files, a pathological archive) must cost bounded time and disk.
 *
 * @param maxExpansion  how many times its compressed size a layer may inflate to
 * @param minInflated   a floor for that limit, so that small, very compressible layers still split
 * @param maxFiles      files per layer (the layer record holds a location per file, in memory when restoring)
 * @param timePerLayer  how long a split may take
 */
public record DedupLimits(long maxExpansion, long minInflated, long maxFiles, Duration timePerLayer) {

    public static final DedupLimits DEFAULT = new DedupLimits(100, 1L << 30, 200_000, Duration.ofMinutes(30));

    /** {@code maxExpansion} times the compressed size, saturating instead of overflowing, and at least {@code minInflated}. */
    long inflateLimit(long compressedSize) {
        long expanded = compressedSize > Long.MAX_VALUE / maxExpansion ? Long.MAX_VALUE : compressedSize * maxExpansion;
        return Math.max(minInflated, expanded);
    }
}
