package dev.layerfold.dedup.codec.deflate.golang;

import java.io.OutputStream;

/**
 * Go 1.8-1.26's levels 0 (NoCompression: {@code store}) and -2 (HuffmanOnly: {@code storeHuff})
 * encoding one segment of a stream between two of its 65535-byte blocks. Each window is written as
 * a block of its own, stored or Huffman-coded from its own literals' counts (or stored where that
 * is not smaller), with no match search, so nothing crosses a block boundary but the bit writer's
 * partial last byte: a segment needs the original's bit offset and no input before its point, and
 * every block boundary is a restart point without state values. A flush mid-stream would end a block
 * early; one right before the end ({@link #flush}) only changes the last segment. Not thread-safe.
 */
public final class GoStoreSegmentEncoder extends StoreWindowSegment<StoreWindowCompressor> {

    /** A resume reads no input before its point. */
    public static final int HISTORY = 0;

    private GoStoreSegmentEncoder(OutputStream out, int level, long startBit, long blockStart) {
        super(out, startBit, blockStart, HISTORY, level == 0 ? StoreCompressor::new : HuffmanOnlyCompressor::new);
    }

    /** Whether Go's {@code level} is one this encodes in segments: 0 or -2 (HuffmanOnly). */
    public static boolean restartable(int level) {
        return level == 0 || level == GoFlateEncoder.HUFFMAN_ONLY;
    }

    /** A segment from the stream's start. */
    public static GoStoreSegmentEncoder start(OutputStream out, int level) {
        return new GoStoreSegmentEncoder(out, checked(level), 0, 0);
    }

    /**
     * A segment from the block boundary at input offset {@code input} and bit {@code startBit} of the stream.
     *
     * @throws IllegalArgumentException if these cannot be a block boundary's
     */
    public static GoStoreSegmentEncoder resume(OutputStream out, int level, long startBit, long input) {
        if (!blockBoundary(startBit, input)) {
            throw new IllegalArgumentException("not a restart point of Go's level " + level + ": input offset " + input
                    + " (a multiple of " + BLOCK + "), bit " + startBit);
        }
        return new GoStoreSegmentEncoder(out, checked(level), startBit, input);
    }

    private static int checked(int level) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go's level " + level + " is not one without match search (0 or -2)");
        }
        return level;
    }

    /** The bit offset, which a resume is given, is all the state there is: every boundary holds. */
    @Override
    protected boolean rebuiltAt(long input, byte[] history, int length) {
        return true;
    }
}
