package dev.layerfold.dedup.codec.deflate.zlib;

/** zlib's compression strategies, in zlib's numbering (Z_DEFAULT_STRATEGY = 0 ... Z_FIXED = 4). */
public enum ZlibStrategy {
    DEFAULT,
    /** Z_FILTERED: drops matches of 5 bytes or less. */
    FILTERED,
    /** Z_HUFFMAN_ONLY: literals only. */
    HUFFMAN_ONLY,
    /** Z_RLE: matches of distance one only. */
    RLE,
    /** Z_FIXED: never dynamic Huffman trees. */
    FIXED;

    /** The zlib constant, as passed to deflateInit2(). */
    public int zlibValue() {
        return ordinal();
    }
}
