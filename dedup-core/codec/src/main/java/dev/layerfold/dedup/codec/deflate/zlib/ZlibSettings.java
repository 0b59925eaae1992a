package dev.layerfold.dedup.codec.deflate.zlib;

/**
 * The deflateInit2() parameters that shape zlib's output: level 0..9, memLevel 1..9 (8 is zlib's and
 * Java's default), windowBits 9..15 (zlib refuses 8 for raw deflate) and the strategy.
 */
public record ZlibSettings(int level, int memLevel, int windowBits, ZlibStrategy strategy) {

    public ZlibSettings {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("zlib level must be 0..9, got " + level);
        }
        if (memLevel < 1 || memLevel > 9) {
            throw new IllegalArgumentException("zlib memLevel must be 1..9, got " + memLevel);
        }
        if (windowBits < 9 || windowBits > 15) {
            throw new IllegalArgumentException("zlib windowBits for raw deflate must be 9..15, got " + windowBits);
        }
        if (strategy == null) {
            throw new IllegalArgumentException("zlib strategy must be given");
        }
    }

    /** zlib's defaults at {@code level}: memLevel 8, a 32 KiB window, the default strategy. */
    public static ZlibSettings of(int level) {
        return new ZlibSettings(level, 8, 15, ZlibStrategy.DEFAULT);
    }
}
