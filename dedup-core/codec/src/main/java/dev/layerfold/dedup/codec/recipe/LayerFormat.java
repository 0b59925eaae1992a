package dev.layerfold.dedup.codec.recipe;

/** The outer format of a layer blob, told by its first bytes. The order gives each its code in a recipe. */
public enum LayerFormat {
    /** An uncompressed tar stream (or any bytes that are neither gzip nor zstd). */
    TAR,
    /** One or more gzip members (RFC 1952) holding a tar stream. */
    GZIP,
    /** One or more Zstandard frames (RFC 8878), skippable ones among them, holding a tar stream. */
    ZSTD;

    /** Tells the format from the blob's first bytes ({@code length} may be shorter than 4). */
    public static LayerFormat sniff(byte[] head, int length) {
        if (length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return GZIP;
        }
        if (length >= 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5 && (head[2] & 0xff) == 0x2f
                && (head[3] & 0xff) == 0xfd) {
            return ZSTD;
        }
        if (length >= 4 && (head[0] & 0xf0) == 0x50 && (head[1] & 0xff) == 0x2a && (head[2] & 0xff) == 0x4d && (head[3] & 0xff) == 0x18) {
            return ZSTD; // a skippable frame first
        }
        return TAR;
    }
}
