package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;

/**
 * A raw DEFLATE (RFC 1951) encoder that reproduces one real implementation's output bit for bit:
 * given the same input and settings it writes exactly the bytes that implementation writes.
 *
 * <p>Output goes to the sink the encoder was created with, as soon as the reproduced implementation
 * would have emitted it, so a caller comparing against an original stream can reject a wrong
 * candidate after its first block. How input is split across {@link #write} calls never changes the
 * output (the reproduced implementations have the same property). Not thread-safe.
 */
public interface DeflateEncoder {

    /** Compresses {@code length} bytes of {@code data} from {@code offset}. */
    void write(byte[] data, int offset, int length) throws IOException;

    /** Compresses whatever is buffered and writes the final block. No call may follow. */
    void finish() throws IOException;

    /**
     * Reports every token this encoder finds from now on to {@code observer}, if each Huffman block
     * it writes holds exactly the tokens reported for it, in order (its stored blocks aside), and
     * returns true. Returns false, reporting nothing, for an encoder that may write other symbols
     * than its tokens (klauspost's encoders write a block of literals where matches were found,
     * when that is smaller).
     */
    default boolean observeTokens(TokenObserver observer) {
        return false;
    }
}
