package dev.layerfold.dedup.codec.deflate;

/**
 * Told each LZ77 token an encoder adds to its current block, in order, as it is found: long
 * before the block's bytes exist (a dynamic Huffman block starts with tables built from all its
 * tokens). Identification compares them with the original's first block and so rejects a wrong
 * candidate at its first wrong token instead of after a whole block of compression. An observer
 * stops the encoder by throwing an unchecked exception.
 */
public interface TokenObserver {

    /** A literal byte, 0..255. */
    void literal(int value);

    /** A match of {@code length} (3..258) bytes, {@code distance} (1..32768) bytes back. */
    void match(int length, int distance);
}
