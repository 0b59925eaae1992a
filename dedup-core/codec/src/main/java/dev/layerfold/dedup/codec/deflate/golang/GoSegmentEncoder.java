package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FlushableSegment;
import dev.layerfold.dedup.codec.deflate.FastRestart;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Go's levels 2 to 9 encoding one segment of a stream between block boundaries: from the start or
 * from a {@link GoRestartState} rebuilt with the input before it, up to the first block ending at
 * or after a given input offset, or to the end. Go's blocks are not byte aligned: a segment that
 * starts {@code k} bits into a byte writes that first byte with its low {@code k} bits zero, and
 * its last partial byte with the bits after its end zero, so that consecutive segments merge by
 * OR-ing the byte they share. The lazy levels (4 to 9) hash every position, so the 32 KiB before a
 * point rebuild their chains exactly; the greedy levels (2 and 3) rebuild them by a warm-up over more
 * input ({@link FastRestart}), which holds only at boundaries {@link #verifyBoundaries verified}.
 *
 * <p>The compressor steps only when its window is full (or at the end), as Go's does in a single
 * write of the whole input: where the window slides then depends on the input alone, not on how
 * it was cut into writes, so a segment encoded again from the same point writes the same bits.
 * Not thread-safe.
 */
public final class GoSegmentEncoder implements BoundarySegment, FlushableSegment {

    private final HuffmanBitWriter w;
    private final HashChainCompressor compressor;
    private final long startBit;
    /** The input offset the segment starts at. */
    private final long start;

    private GoSegmentEncoder(OutputStream out, int level, long startBit, long start) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go level " + level + " has no restart points (levels 2 to 9 search hash chains)");
        }
        this.w = new HuffmanBitWriter(Objects.requireNonNull(out, "out"));
        this.compressor = new HashChainCompressor(w, CompressionLevel.of(level == -1 ? 6 : level));
        this.startBit = startBit;
        this.start = start;
        w.startAtBit((int) (startBit & 7));
    }

    /**
     * Whether Go's {@code level} can be encoded in segments: the levels that search hash chains, lazy
     * (4 to 9) or greedy (2 and 3, whose boundaries hold only where {@link #verifyBoundaries verified}).
     */
    public static boolean restartable(int level) {
        int effective = level == -1 ? 6 : level;
        return effective >= 2 && effective <= 9;
    }

    private static boolean greedy(int level) {
        return level == 2 || level == 3;
    }

    /** How much input before a point at {@code level} a resume reads: a window, or the greedy levels' warm-up. */
    public static int history(int level) {
        return greedy(level) ? FastRestart.WARM_UP : 32 * 1024;
    }

    /**
     * How much input past a boundary an encoder at {@code level} may read before it ends a segment there:
     * its 64 KiB window, or the greedy levels' check.
     */
    public static int lookahead(int level) {
        return greedy(level) ? FastRestart.LOOKAHEAD : 64 * 1024;
    }

    /** A segment from the stream's start. */
    public static GoSegmentEncoder start(OutputStream out, int level) {
        return new GoSegmentEncoder(out, level, 0, 0);
    }

    /**
     * A segment from the block boundary {@code state} at bit {@code startBit} of the stream, with
     * {@code history[offset..offset+length)} the input right before it (its last {@link #history} bytes at least).
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary
     */
    public static GoSegmentEncoder resume(OutputStream out, int level, long startBit, GoRestartState state,
                                          byte[] history, int offset, int length) throws IOException {
        if (startBit < 0) {
            throw new IllegalArgumentException("a segment cannot start at bit " + startBit);
        }
        GoSegmentEncoder segment = new GoSegmentEncoder(out, level, startBit, state.input());
        segment.compressor.resume(history, offset, length, state);
        return segment;
    }

    /**
     * For the proof, before any input: the segment ends only at a boundary where a segment resumed
     * there goes on exactly as this one (the greedy levels check it by a warm-up; the lazy levels'
     * boundaries all hold). {@code history[offset..offset+length)} is the input before the segment's
     * start, as much of the {@link #history} as there is.
     */
    @Override
    public void verifyBoundaries(byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        compressor.verifyBoundaries(history, offset, length, start);
    }

    /** The segment ends with the first block that ends at input offset {@code offset} or later. */
    @Override
    public void endAtBlockFrom(long offset) {
        compressor.stopAtBlockEnd(offset);
    }

    /**
     * Takes input, stepping whenever the window is full; returns how much it took: all of it,
     * unless the segment reached its end block (then the rest belongs to the next segment).
     */
    @Override
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        return compressor.take(data, offset, length);
    }

    /**
     * Steps over the input already taken, as far as it can without more: if the segment's end
     * block lies in it, the segment stops there.
     */
    @Override
    public Optional<GoRestartState> boundary() throws IOException {
        if (compressor.windowFull()) {
            compressor.step(false);
        }
        return stopped();
    }

    /** Where the segment ended (the next segment's start), once its end block was written. */
    @Override
    public Optional<GoRestartState> stopped() {
        return Optional.ofNullable(compressor.stopped());
    }

    /** The input this segment took from input offset {@code from} on (before its end, within its window). */
    public byte[] takenFrom(long from) {
        return compressor.windowFrom(from);
    }

    /** The input offset up to which input was taken. */
    public long taken() {
        return compressor.filled();
    }

    /** The bit of the stream the segment reached. */
    @Override
    public long bitPosition() {
        return startBit - (startBit & 7) + w.bitPosition();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits; for a segment that stopped. */
    @Override
    public void endSegment() throws IOException {
        if (compressor.stopped() == null) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.flush();
    }

    /** Go's {@code Writer.Flush}, for the last segment of a stream flushed before its end. */
    @Override
    public void flush() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, false);
        w.flush();
    }

    /** The input ended: writes the last blocks and the final empty block, as Go's {@code Close}. */
    @Override
    public void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }
}
