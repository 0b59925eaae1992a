package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Go 1.8-1.26's level 1 (BestSpeed: crane, ko and kaniko through go-containerregistry) encoding one
 * segment of a stream between two of its 65535-byte blocks. Each block is encoded on its own (a
 * fresh Huffman table) by {@link DeflateFast}, whose state across a boundary is its hash table and
 * the previous block. Which positions entered the table depends on the encoder's own path, so it
 * is rebuilt by a warm-up: the match finder runs from an empty table over the
 * {@value #WARM_UP_BLOCKS} blocks before the point, and the segment goes on with the original's
 * bit offset. A point therefore carries no state values.
 *
 * <p>The warm-up resynchronises with the original's path in most places, not all. A segment asked
 * to {@link #verifyBoundaries verify} its boundaries ends only where a warm-up rebuilds its own
 * state (the previous block and every table entry within reach), so the points it finds hold; the
 * layer's digest still proves them. A block is compressed when the next input arrives (or at the
 * end), as Go's writer does, so a segment's blocks are the original's. Not thread-safe.
 */
public final class GoFastSegmentEncoder {

    /** The input each block holds: points lie at multiples of it. */
    public static final int BLOCK = HuffmanBitWriter.MAX_STORE_BLOCK_SIZE;
    /**
     * Blocks the match finder warms up over. One block alone misses the matches the original found
     * into the block before it, which shifts its path; two resynchronise far more often.
     */
    static final int WARM_UP_BLOCKS = 2;
    /** The most input before a point a resume reads: the warm-up blocks. */
    public static final int HISTORY = WARM_UP_BLOCKS * BLOCK;

    private final HuffmanBitWriter w;
    private final BestSpeedCompressor compressor;
    private final long startBit;
    /** The input offset of the block being filled. */
    private long blockStart;
    private long endFrom = Long.MAX_VALUE;
    private boolean stopped;
    /** With {@link #verifyBoundaries}: the input taken, and at least {@link #HISTORY} bytes before it. */
    private byte[] recent;
    private int recentLength;
    private int failedChecks;
    private int checksToSkip;

    private GoFastSegmentEncoder(OutputStream out, long startBit, long blockStart) {
        this.w = new HuffmanBitWriter(Objects.requireNonNull(out, "out"));
        this.compressor = new BestSpeedCompressor(w);
        this.startBit = startBit;
        this.blockStart = blockStart;
        w.startAtBit((int) (startBit & 7));
    }

    /** Whether Go's {@code level} is the one this encodes in segments: 1, BestSpeed. */
    public static boolean restartable(int level) {
        return level == 1;
    }

    /** A segment from the stream's start. */
    public static GoFastSegmentEncoder start(OutputStream out) {
        return new GoFastSegmentEncoder(out, 0, 0);
    }

    /** How much input before a point at {@code input} a resume reads: the warm-up blocks (or all of it, nearer the start). */
    public static long historyNeeded(long input) {
        return Math.min(input, HISTORY);
    }

    /**
     * A segment from the block boundary at input offset {@code input} and bit {@code startBit} of
     * the stream, with {@code history[offset..offset+length)} the input right before it (at least
     * {@link #historyNeeded} bytes of it).
     *
     * @throws IllegalArgumentException if these cannot be a block boundary's
     */
    public static GoFastSegmentEncoder resume(OutputStream out, long startBit, long input, byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        if (startBit < 0 || input <= 0 || input % BLOCK != 0 || length < historyNeeded(input)) {
            throw new IllegalArgumentException("not a restart point of Go's level 1 with " + length + " bytes of history: input offset "
                    + input + " (a multiple of " + BLOCK + "), bit " + startBit);
        }
        GoFastSegmentEncoder segment = new GoFastSegmentEncoder(out, startBit, input);
        for (int at = offset + length - (int) historyNeeded(input); at < offset + length; at += BLOCK) {
            segment.compressor.warmUp(history, at);
        }
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
        recent = new byte[2 * HISTORY + BLOCK];
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

    /** The bit of the stream the segment reached. */
    public long bitPosition() {
        return startBit - (startBit & 7) + w.bitPosition();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits; for a segment that stopped. */
    public void endSegment() throws IOException {
        if (!stopped) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.flush();
    }

    /** The input ended: writes the last block and the final empty one, as Go's {@code Close}. */
    public void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }

    private void stepBlock() throws IOException {
        compressor.step(false);
        blockStart += BLOCK;
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
            // Each check is a warm-up: where they keep failing, check ever more rarely.
            checksToSkip = ++failedChecks;
        }
    }

    /** Whether a segment resumed at this boundary from the input before it would go on exactly as this one. */
    private boolean rebuiltHere() {
        GoFastSegmentEncoder rebuilt = resume(OutputStream.nullOutputStream(), bitPosition(), blockStart, recent, 0, recentLength);
        return compressor.sameMatchState(rebuilt.compressor);
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
