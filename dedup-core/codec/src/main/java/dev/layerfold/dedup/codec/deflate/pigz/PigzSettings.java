package dev.layerfold.dedup.codec.deflate.pigz;

import dev.layerfold.dedup.codec.family.FamilySpec;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

/**
 * The pigz options that shape its deflate stream: level 1..9 ({@code -1} .. {@code -9}), block size in
 * bytes ({@code -b} KiB; 32 KiB to 512 MiB, 128 KiB by default), {@code --independent} (no dictionary
 * carried between blocks) and whether pigz compressed in one thread ({@code -p 1}, or a one-CPU
 * machine), which takes a different code path in pigz (single_compress()) than several threads
 * (compress_thread()).
 */
public record PigzSettings(int level, int blockSize, boolean independent, boolean singleThread) implements FamilySpec {

    /** pigz's default block size, 128 KiB. */
    public static final int DEFAULT_BLOCK_SIZE = 128 * 1024;
    /** pigz's DICT: the history carried from one block into the next. */
    static final int DICTIONARY_SIZE = 32 * 1024;
    /** The largest block pigz 2.6 accepts ({@code -b 524288}); the encoder holds one block in memory. */
    static final int MAX_BLOCK_SIZE = 512 << 20;

    public PigzSettings {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("pigz level must be 1..9 (level 0 and zopfli's 11 are not"
                    + " reproduced), got " + level);
        }
        if (blockSize < DICTIONARY_SIZE || blockSize > MAX_BLOCK_SIZE || blockSize % 1024 != 0) {
            throw new IllegalArgumentException("pigz block size must be a multiple of 1 KiB from 32 KiB to 512 MiB"
                    + " (pigz refuses larger), got " + blockSize);
        }
    }

    /** The {@code pigz} spec: the level, then block size, 1 if {@code --independent}, 1 if compressed in a single thread. */
    @Override
    public EncoderSpec stored() {
        return EncoderSpec.of(PigzFamily.NAME, level, blockSize, independent ? 1 : 0, singleThread ? 1 : 0);
    }

    /** pigz's defaults at {@code level}: 128 KiB blocks with dictionaries, several threads. */
    public static PigzSettings of(int level) {
        return new PigzSettings(level, DEFAULT_BLOCK_SIZE, false, false);
    }
}
