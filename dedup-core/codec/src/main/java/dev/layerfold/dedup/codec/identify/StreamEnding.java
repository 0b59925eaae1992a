package dev.layerfold.dedup.codec.identify;

import java.util.Arrays;

/**
 * Watches the last bytes of a member's deflate stream for what its ending tells of the writer.
 *
 * <p>A stream sync-flushed right before it was closed: the flush's empty stored block leaves the
 * output byte-aligned, so it ends {@code 00 00 ff ff}, and the final empty block the writer closes
 * with follows whole: a stored one from Go up to 1.26 ({@code 01 00 00 ff ff}), a fixed-Huffman one
 * from Go 1.27's klauspost-derived writer ({@code 03 00}). Without the flush, the final block's header
 * shares a byte with the data's last block and no empty stored block precedes it.
 *
 * <p>A stream closed with a fixed-Huffman empty block on a byte boundary ({@code 03 00}), after a stored
 * or flushed block: Go 1.27's at level 0, whose stored blocks are Go 1.26's up to that final one.
 * The rebuild proves either guess.
 */
final class StreamEnding {

    private static final byte[] GO = {0, 0, (byte) 0xff, (byte) 0xff, 1, 0, 0, (byte) 0xff, (byte) 0xff};
    private static final byte[] GO_127 = {0, 0, (byte) 0xff, (byte) 0xff, 3, 0};
    private static final byte[] FIXED_FINAL_BLOCK = {3, 0};

    private final byte[] last = new byte[GO.length];
    private long seen;

    void append(byte[] data, int offset, int length) {
        int take = Math.min(length, last.length);
        int keep = last.length - take;
        System.arraycopy(last, take, last, 0, keep);
        System.arraycopy(data, offset + length - take, last, keep, take);
        seen += length;
    }

    boolean flushed() {
        return endsWith(GO) || endsWith(GO_127);
    }

    boolean closedWithFixedBlock() {
        return endsWith(FIXED_FINAL_BLOCK);
    }

    private boolean endsWith(byte[] ending) {
        return seen >= ending.length && Arrays.equals(last, last.length - ending.length, last.length, ending, 0, ending.length);
    }
}
