package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.CountingOutput;

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
 * <p>The warm-up resynchronises with the original's path in most places, not all. A segment
 * asked to {@link #verifyBoundaries verify} its boundaries ends only where a warm-up rebuilds its
 * own state (every table entry within reach, the open table), so the points it finds hold; the
 * layer's digest still proves them. Like {@link KlauspostFlateEncoder}, a block is compressed when
 * the next input arrives (or at the end), so a segment's blocks are the original's. Not thread-safe.
 */
public final class Go127SegmentEncoder {

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
    /** The input offset of the block being filled. */
    private long blockStart;
    /** Blocks since the open table was headed; 0 with none open. */
    private int age;
    private long endFrom = Long.MAX_VALUE;
    private boolean stopped;
    /** With {@link #verifyBoundaries}: the input taken, and at least {@link #HISTORY} bytes before it. */
    private byte[] recent;
    private int recentLength;
    private int failedChecks;
    private int checksToSkip;

    private Go127SegmentEncoder(OutputStream sink, int level, long startBit) {
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
        return new Go127SegmentEncoder(out, level, 0);
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
        Go127SegmentEncoder segment = new Go127SegmentEncoder(OutputStream.nullOutputStream(), level, startBit);
        long opener = block - age;
        long warmFrom = Math.max(0, opener - WARM_UP_BLOCKS);
        int at = offset + length - (int) (input - warmFrom * BLOCK);
        segment.compressor.startAtBlock(warmFrom, history, offset, at - offset);
        for (long b = warmFrom; b < opener; b++, at += BLOCK) {
            segment.compressor.warmUp(history, at, BLOCK);
        }
        segment.blockStart = opener * BLOCK;
        for (long b = opener; b < block; b++, at += BLOCK) {
            segment.compressor.fill(history, at, BLOCK);
            segment.stepBlock();
        }
        if (segment.age != age) {
            throw new IllegalArgumentException("the blocks before input offset " + input + " leave a table of age " + segment.age
                    + ", not the restart point's " + age);
        }
        segment.out = new CountingOutput(Objects.requireNonNull(out, "out"));
        segment.w.continueAt(segment.out, (int) (startBit & 7));
        return segment;
    }

    /** The segment ends with the first block boundary at input offset {@code offset} or later that qualifies. */
    public void endAtBlockFrom(long offset) {
        endFrom = offset;
    }

    /**
     * From now on a boundary qualifies only if a segment resumed there goes on exactly as this one:
     * for the proof, which records points where its segments end. {@code history[offset..offset+length)}
     * is the input before this segment's start (as much of {@link #HISTORY} as there is).
     */
    public void verifyBoundaries(byte[] history, int offset, int length) {
        recent = new byte[2 * (HISTORY + BLOCK)];
        recentLength = Math.min(length, HISTORY);
        System.arraycopy(history, offset + length - recentLength, recent, 0, recentLength);
    }

    /** Takes input; returns how much: all of it, unless the segment reached its end (the rest belongs to the next). */
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int taken = 0;
        while (taken < length && !stopped) {
            if (compressor.full()) {
                stepBlock();
                if (stopped) {
                    break;
                }
            }
            int n = compressor.fill(data, offset + taken, length - taken);
            remember(data, offset + taken, n);
            taken += n;
        }
        return taken;
    }

    /** Compresses the full block taken, if the segment may end after it; true if the segment reached its end. */
    public boolean stepTaken() throws IOException {
        if (!stopped && compressor.full()) {
            stepBlock();
        }
        return stopped;
    }

    /** Whether the segment reached its end: it ends at {@link #end()}. */
    public boolean stopped() {
        return stopped;
    }

    /** The input offset the segment took input to: where it ends once stopped. */
    public long end() {
        return blockStart + compressor.windowEnd;
    }

    /** The next point's state value: blocks since the open table was headed (0: none open), 1 past {@link #MAX_TABLE_AGE}. */
    public int tableAge() {
        return age <= MAX_TABLE_AGE ? age : 1;
    }

    /** The bit of the stream the segment reached. */
    public long bitPosition() {
        return startBit - (startBit & 7) + 8 * out.count() + w.pendingBits();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits, leaving the table open; for a segment that stopped. */
    public void endSegment() throws IOException {
        if (!stopped) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.writePending();
    }

    /** The input ended: writes the last block and the final empty one, as Go's {@code Close}. */
    public void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }

    private void stepBlock() throws IOException {
        int opened = w.tablesOpened();
        compressor.step(false);
        blockStart += BLOCK;
        age = !w.tableOpen() ? 0 : w.tablesOpened() != opened ? 1 : age + 1;
        if (blockStart < endFrom) {
            return;
        }
        if (recent == null) {
            stopped = true;
        } else if (checksToSkip > 0) {
            checksToSkip--;
        } else if (rebuiltHere()) {
            stopped = true;
        } else {
            // Each check is a warm-up: where they keep failing (data whose table stays open for long), check ever more rarely.
            checksToSkip = ++failedChecks;
        }
    }

    /** Whether a segment resumed at this boundary from the input before it would go on exactly as this one. */
    private boolean rebuiltHere() throws IOException {
        Go127SegmentEncoder rebuilt;
        try {
            rebuilt = resume(OutputStream.nullOutputStream(), level, bitPosition(), blockStart, tableAge(), recent, 0, recentLength);
        } catch (IllegalArgumentException e) {
            // Too little history: the first blocks of the stream.
            return false;
        }
        return compressor.sameMatchState(rebuilt.compressor) && w.sameOpenTable(rebuilt.w);
    }

    private void remember(byte[] data, int offset, int n) {
        if (recent == null) {
            return;
        }
        if (recentLength + n > recent.length) {
            int keep = HISTORY + BLOCK - n;
            System.arraycopy(recent, recentLength - keep, recent, 0, keep);
            recentLength = keep;
        }
        System.arraycopy(data, offset, recent, recentLength, n);
        recentLength += n;
    }
}
