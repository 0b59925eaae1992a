package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FlushableSegment;
import dev.layerfold.dedup.codec.io.CountingOutput;
import dev.layerfold.dedup.codec.io.LayerRebuildException;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Go 1.27's levels 7 to 9 encoding one segment of a stream between block boundaries: from the
 * start or from a {@link Go127LazyRestartState} with the input before it, up to the first restart
 * point at or after a given input offset, or to the end. Like Go 1.26's levels 4 to 9, they insert
 * every position into hash chains over a 32 KiB reach and end a block after a count of tokens, at
 * any bit, so the lazy matcher's state at a boundary is the input before it plus a few values. But
 * the Huffman table a block ends with usually stays open for the next ones, and which table that is
 * follows from the encoder's path alone: a segment resumes at the boundary where the block that
 * headed the open table began (its opener), encodes the blocks from there to its point again into
 * nothing, heading the table as the original did, and goes on writing from the point. A point's
 * opener lies at most {@value #MAX_REPLAY} bytes before it; boundaries whose table was headed
 * earlier, or headed by a block that began where a resume cannot, are no restart points.
 *
 * <p>The compressor steps only when its window is full (or at the end), as Go's does, so where the
 * window slides depends on the input alone. Segments merge as {@link
 * dev.layerfold.dedup.codec.deflate.golang.GoSegmentEncoder}'s do, by OR-ing the byte two share.
 * Not thread-safe.
 */
final class Go127LazySegmentEncoder implements BoundarySegment, FlushableSegment {

    /** The most input a resume encodes again before its point: the open table's blocks. */
    public static final int MAX_REPLAY = 1 << 20;
    /** The most input before a point a resume reads: the replayed blocks and the 64 KiB window before them. */
    public static final int HISTORY = MAX_REPLAY + 2 * 32 * 1024;

    private final HuffmanBitWriter w;
    private final LazyCompressor compressor;
    private final OutputStream sink;
    private CountingOutput out;
    private final long startBit;
    /** While the blocks before the point are encoded again: the point, else -1. */
    private long replayingTo = -1;
    private long endFrom = Long.MAX_VALUE;

    private Go127LazySegmentEncoder(OutputStream sink, int level, long startBit) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go 1.27's level " + level + " is not one of its lazy levels (7 to 9)");
        }
        this.sink = Objects.requireNonNull(sink, "sink");
        this.out = new CountingOutput(sink);
        this.w = new HuffmanBitWriter(out, 8, FlateRelease.GO_1_27);
        this.compressor = new LazyCompressor(w, level, FlateRelease.GO_1_27);
        this.startBit = startBit;
    }

    /** Whether Go 1.27's {@code level} is encoded in segments here: its lazy levels, which hash every position. */
    public static boolean restartable(int level) {
        return level >= 7 && level <= 9;
    }

    /** A segment from the stream's start. */
    public static Go127LazySegmentEncoder start(OutputStream out, int level) {
        return new Go127LazySegmentEncoder(out, level, 0);
    }

    /** How much input before the point of {@code state} a resume reads: from the window's start at its opener. */
    public static long historyNeeded(Go127LazyRestartState state) {
        return state.input() - state.windowStart();
    }

    /**
     * A segment from the restart point {@code state} at bit {@code startBit} of the stream, with
     * {@code history[offset..offset+length)} the input right before it (at least {@link #historyNeeded} bytes of it).
     *
     * @throws IllegalArgumentException if the state cannot be a restart point's
     */
    public static Go127LazySegmentEncoder resume(OutputStream out, int level, long startBit, Go127LazyRestartState state,
                                                 byte[] history, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, history.length);
        long replay = state.input() - state.opener();
        if (startBit < 0 || state.input() <= 0 || replay < 0 || replay > MAX_REPLAY || length < historyNeeded(state)) {
            throw new IllegalArgumentException("not a restart point of Go 1.27's level " + level + " with " + length
                    + " bytes of history at bit " + startBit + ": " + state);
        }
        Go127LazySegmentEncoder segment = new Go127LazySegmentEncoder(out, level, startBit);
        int windowFrom = offset + length - (int) historyNeeded(state);
        int openerAt = offset + length - (int) replay;
        segment.compressor.resume(history, windowFrom, openerAt - windowFrom, state);
        if (replay == 0) {
            segment.startWriting();
        } else {
            segment.out = new CountingOutput(OutputStream.nullOutputStream());
            segment.w.continueAt(segment.out, 0);
            segment.replayingTo = state.input();
            segment.compressor.stopAt(state.input());
            // The step that reaches the point runs on input past it: the blocks before it are all taken here.
            if (segment.write(history, openerAt, (int) replay) != replay) {
                throw new IllegalArgumentException("the blocks from input offset " + state.opener() + " end before the restart point at "
                        + state.input());
            }
        }
        return segment;
    }

    /** The segment ends with the first restart point at input offset {@code offset} or later. */
    @Override
    public void endAtBlockFrom(long offset) {
        endFrom = offset;
        if (replayingTo < 0) {
            compressor.stopAt(offset);
        }
    }

    /**
     * Takes input, stepping whenever the window is full; returns how much it took: all of it,
     * unless the segment reached its end (then the rest belongs to the next segment).
     */
    @Override
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int taken = 0;
        while (taken < length && stopped().isEmpty()) {
            if (compressor.full()) {
                step();
                if (stopped().isPresent()) {
                    break;
                }
            }
            taken += compressor.fill(data, offset + taken, length - taken);
        }
        return taken;
    }

    /** Steps over the input already taken, as far as it can without more: if the segment's end lies in it, the segment stops there. */
    @Override
    public Optional<Go127LazyRestartState> boundary() throws IOException {
        if (compressor.full()) {
            step();
        }
        return stopped();
    }

    /** Where the segment ended (the next segment's start), once it reached its end. */
    @Override
    public Optional<Go127LazyRestartState> stopped() {
        return replayingTo < 0 ? Optional.ofNullable(compressor.stopped()) : Optional.empty();
    }

    /** The input offset up to which input was taken. */
    public long taken() {
        return compressor.filled();
    }

    /** The bit of the stream the segment reached. */
    @Override
    public long bitPosition() {
        return startBit - (startBit & 7) + 8 * out.count() + w.pendingBits();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits, leaving the table open; for a segment that stopped. */
    @Override
    public void endSegment() throws IOException {
        if (stopped().isEmpty()) {
            throw new IllegalStateException("the segment has not reached its end");
        }
        w.writePending();
    }

    /** Go's {@code Writer.Flush}, for the last segment of a stream flushed before its end. */
    @Override
    public void flush() throws IOException {
        if (replayingTo >= 0) {
            throw new LayerRebuildException("the input ended before the restart point at " + replayingTo + " was reached again");
        }
        compressor.step(true);
        w.writeStoredHeader(0, false);
        w.flush();
    }

    /** The input ended: writes the last blocks and the final empty block, as Go's {@code Close}. */
    @Override
    public void finish() throws IOException {
        if (replayingTo >= 0) {
            throw new LayerRebuildException("the input ended before the restart point at " + replayingTo + " was reached again");
        }
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }

    /** One step; where the blocks encoded again reach the point, the segment's own bits begin and the step goes on. */
    private void step() throws IOException {
        compressor.step(false);
        Go127LazyRestartState at = compressor.stopped();
        if (replayingTo >= 0 && at != null) {
            if (at.input() != replayingTo) {
                throw new LayerRebuildException("the blocks from input offset " + at.opener() + " end at " + at.input()
                        + ", not at the restart point at " + replayingTo);
            }
            replayingTo = -1;
            startWriting();
            compressor.goOn(endFrom);
            compressor.step(false);
        }
    }

    /** From here on the segment's bits go to its output, after the bits of its first byte that precede it. */
    private void startWriting() {
        out = new CountingOutput(sink);
        w.continueAt(out, (int) (startBit & 7));
    }
}
