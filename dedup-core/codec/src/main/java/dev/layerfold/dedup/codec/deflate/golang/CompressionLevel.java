package dev.layerfold.dedup.codec.deflate.golang;

/**
 * The match-search tuning of levels 2 to 9, Go's {@code compressionLevel} and {@code levels} table
 * in {@code compress/flate/deflate.go}: stop searching at a match of {@code nice} bytes, follow at
 * most {@code chain} links (a quarter of them past a {@code good} match), look for a better match
 * only while the previous one is shorter than {@code lazy}; {@code fastSkipHashing} below
 * {@link HashChainCompressor#SKIP_NEVER} selects greedy matching that skips hashing inside matches
 * longer than it.
 */
record CompressionLevel(int level, int good, int lazy, int nice, int chain, int fastSkipHashing) {

    private static final int NEVER = HashChainCompressor.SKIP_NEVER;

    private static final CompressionLevel[] LEVELS = {
        null, // 0 and 1 (NoCompression, BestSpeed) do not search hash chains.
        null,
        new CompressionLevel(2, 4, 0, 16, 8, 5),
        new CompressionLevel(3, 4, 0, 32, 32, 6),
        new CompressionLevel(4, 4, 4, 16, 16, NEVER),
        new CompressionLevel(5, 8, 16, 32, 32, NEVER),
        new CompressionLevel(6, 8, 16, 128, 128, NEVER),
        new CompressionLevel(7, 8, 32, 128, 256, NEVER),
        new CompressionLevel(8, 32, 128, 258, 1024, NEVER),
        new CompressionLevel(9, 32, 258, 258, 4096, NEVER),
    };

    /** The tuning of a level from 2 to 9. */
    static CompressionLevel of(int level) {
        return LEVELS[level];
    }
}
