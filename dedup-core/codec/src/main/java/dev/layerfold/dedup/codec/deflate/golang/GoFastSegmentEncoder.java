package dev.layerfold.dedup.codec.deflate.golang;

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
 * <p>The warm-up resynchronises with the original's path in most places, not all (never in
 * periodic data, whose matches of 258 bytes keep the phase the warm-up started with): a boundary
 * {@link #verifyBoundaries verified} is one where a warm-up rebuilds the encoder's own state (the
 * previous block and every table entry within reach), so the points the proof finds hold; the
 * layer's digest still proves them. Not thread-safe.
 */
public final class GoFastSegmentEncoder extends StoreWindowSegment<BestSpeedCompressor> {

    /**
     * Blocks the match finder warms up over. One block alone misses the matches the original found
     * into the block before it, which shifts its path; two resynchronise far more often.
     */
    static final int WARM_UP_BLOCKS = 2;
    /** The most input before a point a resume reads: the warm-up blocks. */
    public static final int HISTORY = WARM_UP_BLOCKS * BLOCK;

    private GoFastSegmentEncoder(OutputStream out, long startBit, long blockStart) {
        super(out, startBit, blockStart, HISTORY, BestSpeedCompressor::new);
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
        if (!blockBoundary(startBit, input) || length < historyNeeded(input)) {
            throw new IllegalArgumentException("not a restart point of Go's level 1 with " + length + " bytes of history: input offset "
                    + input + " (a multiple of " + BLOCK + "), bit " + startBit);
        }
        GoFastSegmentEncoder segment = new GoFastSegmentEncoder(out, startBit, input);
        for (int at = offset + length - (int) historyNeeded(input); at < offset + length; at += BLOCK) {
            segment.compressor.warmUp(history, at);
        }
        return segment;
    }

    @Override
    protected boolean rebuiltAt(long input, byte[] history, int length) {
        GoFastSegmentEncoder rebuilt = resume(OutputStream.nullOutputStream(), bitPosition(), input, history, 0, length);
        return compressor.sameMatchState(rebuilt.compressor);
    }
}
