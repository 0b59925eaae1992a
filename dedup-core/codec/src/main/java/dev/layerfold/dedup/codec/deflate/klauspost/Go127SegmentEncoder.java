package dev.layerfold.dedup.codec.deflate.klauspost;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Go 1.27's levels 1 to 6 encoding one segment of a stream between two of its 65535-byte blocks.
 * Their state at a block boundary cannot be derived from the input alone: which positions entered
 * the hash tables depends on the encoder's own path, and the Huffman table the last blocks left
 * open may have been headed several blocks before. It is rebuilt by a warm-up instead: the match
 * finder runs from empty tables over {@value #WARM_UP_BLOCKS} block before the block that headed
 * the open table, then the blocks from that one on are encoded again into nothing (their table is
 * headed afresh, as it was), and the segment goes on with the original's bit offset. The point's
 * one state value is that table's age in blocks; a table headed more than {@value #MAX_TABLE_AGE}
 * blocks before (data alike for long keeps its table) is taken as if the last block had headed it,
 * which holds where that block's table is the same.
 *
 * <p>The warm-up resynchronises with the original's path in most places, not all: a boundary
 * {@link #verifyBoundaries verified} is one where a warm-up rebuilds the encoder's own state (every
 * table entry within reach, the open table), so the points the proof finds hold; the layer's digest
 * still proves them. Not thread-safe.
 */
public final class Go127SegmentEncoder extends Go127WindowSegment<Compressor.Fast> {

    /** The input each block holds: points lie at multiples of it. */
    public static final int BLOCK = HuffmanBitWriter.MAX_STORE_BLOCK_SIZE;
    /** The most blocks since the open table was headed that a point replays. */
    public static final int MAX_TABLE_AGE = 8;
    /** Blocks the match finder warms up over before the replayed ones. */
    static final int WARM_UP_BLOCKS = 1;
    /** The most input before a point a resume reads: the warm-up, the replayed blocks and the 32 KiB before them. */
    public static final int HISTORY = (MAX_TABLE_AGE + WARM_UP_BLOCKS) * BLOCK + FastEncoder.MAX_MATCH_OFFSET;

    private Go127SegmentEncoder(OutputStream sink, int level, long startBit, long blockStart) {
        super(sink, effective(level), startBit, blockStart, BLOCK, HISTORY, 7, w -> new Compressor.Fast(w, effective(level), FlateRelease.GO_1_27));
    }

    /** The level Go 1.27 runs for {@code level}: 6 for the default. */
    private static int effective(int level) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go 1.27's level " + level + " has no restart points (levels 1 to 6 have)");
        }
        return level == -1 ? 6 : level;
    }

    /** Whether Go 1.27's {@code level} can be encoded in segments: its block-wise levels 1 to 6 (and the default). */
    public static boolean restartable(int level) {
        return level == -1 || level >= 1 && level <= 6;
    }

    /** A segment from the stream's start. */
    public static Go127SegmentEncoder start(OutputStream out, int level) {
        return new Go127SegmentEncoder(out, level, 0, 0);
    }

    /**
     * How much input before a point at {@code input} with table age {@code age} a resume reads: from
     * 32 KiB before the first warm-up block (or the stream's start).
     */
    public static long historyNeeded(long input, int age) {
        long warmFrom = Math.max(0, input / BLOCK - age - WARM_UP_BLOCKS);
        return input - Math.max(0, warmFrom * BLOCK - FastEncoder.MAX_MATCH_OFFSET);
    }

    /**
     * A segment from the block boundary at input offset {@code input} and bit {@code startBit} of
     * the stream, whose open table was headed {@code age} blocks before (0: none open), with
     * {@code history[offset..offset+length)} the input right before it (at least
     * {@link #historyNeeded} bytes of it).
     *
     * @throws IllegalArgumentException if these cannot be a block boundary's, or the replay does not end with a table of that age
     */
    public static Go127SegmentEncoder resume(OutputStream out, int level, long startBit, long input, int age,
                                             byte[] history, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, history.length);
        long block = input / BLOCK;
        if (startBit < 0 || input <= 0 || input % BLOCK != 0 || age < 0 || age > MAX_TABLE_AGE || age > block
                || length < historyNeeded(input, age)) {
            throw new IllegalArgumentException("not a restart point of Go 1.27's level " + level + " with " + length
                    + " bytes of history: input offset " + input + ", bit " + startBit + ", table age " + age);
        }
        long opener = block - age;
        Go127SegmentEncoder segment = new Go127SegmentEncoder(OutputStream.nullOutputStream(), level, startBit, opener * BLOCK);
        long warmFrom = Math.max(0, opener - WARM_UP_BLOCKS);
        int at = offset + length - (int) (input - warmFrom * BLOCK);
        segment.compressor.startAtBlock(warmFrom, history, offset, at - offset);
        for (long b = warmFrom; b < opener; b++, at += BLOCK) {
            segment.compressor.warmUp(history, at, BLOCK);
        }
        for (long b = opener; b < block; b++, at += BLOCK) {
            segment.compressor.fill(history, at, BLOCK);
            segment.replayBlock();
        }
        if (segment.age != age) {
            throw new IllegalArgumentException("the blocks before input offset " + input + " leave a table of age " + segment.age
                    + ", not the restart point's " + age);
        }
        segment.continueTo(out);
        return segment;
    }

    /** The next point's state value: blocks since the open table was headed (0: none open), 1 past {@link #MAX_TABLE_AGE}. */
    public int tableAge() {
        return age <= MAX_TABLE_AGE ? age : 1;
    }

    @Override
    protected boolean rebuiltAt(long input, byte[] history, int length) throws IOException {
        Go127SegmentEncoder rebuilt;
        try {
            rebuilt = resume(OutputStream.nullOutputStream(), level, bitPosition(), input, tableAge(), history, 0, length);
        } catch (IllegalArgumentException e) {
            // Too little history: the first blocks of the stream.
            return false;
        }
        return compressor.sameMatchState(rebuilt.compressor) && w.sameOpenTable(rebuilt.w);
    }
}
