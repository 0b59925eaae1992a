package dev.layerfold.dedup.codec.deflate.zlib;

/** deflate()'s flush argument, in zlib's numbering (Z_NO_FLUSH = 0 ... Z_BLOCK = 5). */
public enum ZlibFlush {
    NO_FLUSH,
    /** Z_PARTIAL_FLUSH: ends the block and adds an empty fixed block. */
    PARTIAL_FLUSH,
    /** Z_SYNC_FLUSH: ends the block and adds an empty stored block (00 00 ff ff), byte-aligned. */
    SYNC_FLUSH,
    /** Z_FULL_FLUSH: as SYNC_FLUSH, and forgets the history. */
    FULL_FLUSH,
    FINISH,
    /** Z_BLOCK: ends the block without aligning; up to 7 bits stay pending. */
    BLOCK;

    /** zlib's RANK(): orders Z_BLOCK between Z_NO_FLUSH and Z_PARTIAL_FLUSH. */
    static int rank(int flush) {
        return flush * 2 - (flush > 4 ? 9 : 0);
    }
}
