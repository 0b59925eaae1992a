package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.CountingOutput;
import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;

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
public final class Go127SegmentEncoder extends VerifiedBlockSegment {

    /** The input each block holds: points lie at multiples of it. */
    public static final int BLOCK = HuffmanBitWriter.MAX_STORE_BLOCK_SIZE;
    /** The most blocks since the open table was headed that a point replays. */
    public static final int MAX_TABLE_AGE = 8;
    /** Blocks the match finder warms up over before the replayed ones. */
    static final int WARM_UP_BLOCKS = 1;
    /** The most input before a point a resume reads: the warm-up, the replayed blocks and the 32 KiB before them. */
    public static final int HISTORY = (MAX_TABLE_AGE + WARM_UP_BLOCKS) * BLOCK + FastEncoder.MAX_MATCH_OFFSET;

    private final int level;
    private final HuffmanBitWriter w;
    private final Compressor.Fast compressor;
    private CountingOutput out;
    private final long startBit;
    /** Blocks since the open table was headed; 0 with none open. */
    private int age;

    private Go127SegmentEncoder(OutputStream sink, int level, long startBit, long blockStart) {
        super(BLOCK, HISTORY, blockStart);
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go 1.27's level " + level + " has no restart points (levels 1 to 6 have)");
        }
        this.level = level == -1 ? 6 : level;
        this.out = new CountingOutput(Objects.requireNonNull(sink, "sink"));
        this.w = new HuffmanBitWriter(out, 7, FlateRelease.GO_1_27);
        this.compressor = new Compressor.Fast(w, this.level, FlateRelease.GO_1_27);
        this.startBit = startBit;
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
        segment.out = new CountingOutput(Objects.requireNonNull(out, "out"));
        segment.w.continueAt(segment.out, (int) (startBit & 7));
        return segment;
    }

    /** The next point's state value: blocks since the open table was headed (0: none open), 1 past {@link #MAX_TABLE_AGE}. */
    public int tableAge() {
        return age <= MAX_TABLE_AGE ? age : 1;
    }

    @Override
    public long bitPosition() {
        return startBit - (startBit & 7) + 8 * out.count() + w.pendingBits();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits, leaving the table open; for a segment that stopped. */
    @Override
    public void endSegment() throws IOException {
        if (!stopped()) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.writePending();
    }

    /** Go's {@code Writer.Flush}, for the last segment of a stream flushed before its end. */
    @Override
    public void flush() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, false);
        w.flush();
    }

    /** The input ended: writes the last block and the final empty one, as Go's {@code Close}. */
    @Override
    public void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }

    @Override
    protected boolean blockFull() {
        return compressor.full();
    }

    @Override
    protected int fillBlock(byte[] data, int offset, int length) {
        return compressor.fill(data, offset, length);
    }

    @Override
    protected int blockFilled() {
        return compressor.windowEnd;
    }

    @Override
    protected void compressBlock() throws IOException {
        int opened = w.tablesOpened();
        compressor.step(false);
        age = !w.tableOpen() ? 0 : w.tablesOpened() != opened ? 1 : age + 1;
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
