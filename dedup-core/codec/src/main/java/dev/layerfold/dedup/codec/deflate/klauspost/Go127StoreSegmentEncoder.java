package dev.layerfold.dedup.codec.deflate.klauspost;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Go 1.27's levels 0 (NoCompression: {@code store}) and -2 (HuffmanOnly: {@code storeHuff}) encoding
 * one segment of a stream between two of its blocks. Neither searches for matches: level 0 writes
 * each 65535-byte window as a stored block, so nothing crosses a boundary (every one is a point,
 * with no state values and no input before it). Level -2 writes each 32 KiB window from its own
 * literal counts, but, unlike Go 1.26, {@code writeBlockHuff} goes on with the table a previous window
 * opened (no end of block between them) where that is cheaper: that table is the only state, and a
 * resume rebuilds it by encoding again into nothing the windows from the one that opened it, the
 * point's one state value being its age in windows (0: none open), at most {@value #MAX_TABLE_AGE}.
 * A window that opened a table after ending the one before chose so against that table's header
 * size, which a replay from a fresh writer does not know, so the proof records only boundaries where
 * the replay rebuilds the encoder's own open table ({@link #verifyBoundaries}). A flush mid-stream would
 * end a block early; one right before the end ({@link #flush}) only changes the last segment. Not thread-safe.
 */
final class Go127StoreSegmentEncoder extends Go127WindowSegment<Compressor.Blockwise> {

    /** The most windows since the open table was opened that a resume replays. */
    public static final int MAX_TABLE_AGE = 32;
    private static final int HUFFMAN_ONLY = -2;
    private static final int HUFFMAN_BLOCK = 32 << 10;

    private Go127StoreSegmentEncoder(OutputStream sink, int level, long startBit, long blockStart) {
        super(sink, level, startBit, blockStart, block(level), history(level), level == 0 ? 0 : 10,
                level == 0 ? Compressor.Store::new : Compressor.HuffmanOnly::new);
    }

    /** Whether Go 1.27's {@code level} is one this encodes in segments: 0 or -2 (HuffmanOnly). */
    public static boolean restartable(int level) {
        return level == 0 || level == HUFFMAN_ONLY;
    }

    /** The input each block of {@code level} holds: points lie at multiples of it. */
    public static int block(int level) {
        return checked(level) == 0 ? HuffmanBitWriter.MAX_STORE_BLOCK_SIZE : HUFFMAN_BLOCK;
    }

    /** The most input before a point a resume at {@code level} reads: none at level 0, the windows of the oldest table replayed at -2. */
    public static int history(int level) {
        return checked(level) == 0 ? 0 : MAX_TABLE_AGE * HUFFMAN_BLOCK;
    }

    /** A segment from the stream's start. */
    public static Go127StoreSegmentEncoder start(OutputStream out, int level) {
        return new Go127StoreSegmentEncoder(out, checked(level), 0, 0);
    }

    /**
     * A segment from the block boundary at input offset {@code input} and bit {@code startBit} of the
     * stream, whose open table was opened {@code age} windows before (0: none open; always at level 0),
     * with {@code history[offset..offset+length)} the input right before it (at least those windows).
     *
     * @throws IllegalArgumentException if these cannot be a block boundary's, or the replay does not end with a table of that age
     */
    public static Go127StoreSegmentEncoder resume(OutputStream out, int level, long startBit, long input, int age,
                                                  byte[] history, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, history.length);
        int block = block(level);
        if (startBit < 0 || input <= 0 || input % block != 0 || age < 0 || age > MAX_TABLE_AGE || age > input / block
                || level == 0 && (age != 0 || startBit % 8 != 0) || length < (long) age * block) {
            throw new IllegalArgumentException("not a restart point of Go 1.27's level " + level + " with " + length
                    + " bytes of history: input offset " + input + ", bit " + startBit + ", table age " + age);
        }
        Go127StoreSegmentEncoder segment = new Go127StoreSegmentEncoder(OutputStream.nullOutputStream(), level, startBit, input - (long) age * block);
        for (int at = offset + length - age * block; at < offset + length; at += block) {
            segment.compressor.fill(history, at, block);
            segment.replayBlock();
        }
        if (segment.age != age) {
            throw new IllegalArgumentException("the windows before input offset " + input + " leave a table of age " + segment.age
                    + ", not the restart point's " + age);
        }
        segment.continueTo(out);
        return segment;
    }

    /** The next point's state value: windows since the open table was opened (0: none open, and always at level 0). */
    public int tableAge() {
        return age;
    }

    /** Level 0 keeps nothing; at -2 a boundary holds where replaying its table's windows opens the same table, no older than a resume replays. */
    @Override
    protected boolean rebuiltAt(long input, byte[] history, int length) throws IOException {
        if (level == 0) {
            return true;
        }
        Go127StoreSegmentEncoder rebuilt;
        try {
            rebuilt = resume(OutputStream.nullOutputStream(), level, bitPosition(), input, age, history, 0, length);
        } catch (IllegalArgumentException e) {
            // A table older than a resume replays, or one its windows, replayed afresh, do not open again.
            return false;
        }
        return w.sameOpenTable(rebuilt.w);
    }

    private static int checked(int level) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go 1.27's level " + level + " is not one without match search (0 or -2)");
        }
        return level;
    }
}
