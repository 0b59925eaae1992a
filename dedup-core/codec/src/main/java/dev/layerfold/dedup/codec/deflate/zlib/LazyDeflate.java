package dev.layerfold.dedup.codec.deflate.zlib;

import java.io.IOException;

/**
 * A lazy-matching deflate that can end a segment at a block boundary and start one from a
 * boundary's {@link LazyRestartState}: zlib's deflate_slow and GNU gzip's deflate. Not thread-safe.
 */
interface LazyDeflate {

    /**
     * Continues a fresh stream from the block boundary {@code state}, with {@code history[offset..offset+length)}
     * the input right before it and {@code startBit} (0..7) the bits of the byte the previous block ended in.
     */
    void resume(LazyRestartState state, byte[] history, int offset, int length, int startBit);

    /**
     * For the proof: from now on a block boundary ends the segment only where a segment resumed there
     * goes on exactly as this one; {@code history[offset..offset+length)} is the input before the
     * segment's start, input offset {@code start}. Only the fast levels (1 to 3) check; the lazy levels'
     * resumed state is exact by construction.
     */
    void verifyBoundaries(byte[] history, int offset, int length, long start);

    /** Stops at the first block boundary at input offset {@code offset} or later. */
    void stopAtBlockFrom(long offset);

    /** Where it stopped, or null. */
    LazyRestartState stopped();

    /** Compresses input; returns how much it read: all of it, unless it stopped. */
    int take(byte[] data, int offset, int length) throws IOException;

    /** Hands every whole byte to the sink; returns the 0 to 7 bits left. */
    int flushWholeBytes();

    /** Writes the bits of a segment that stopped, its last byte padded with zero bits. */
    void endSegment();

    /** The input ended: writes the last block. */
    void finish() throws IOException;
}
