package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Optional;

/**
 * Go's levels 4 to 9 encoding one segment of a stream between block boundaries: from the start or
 * from a {@link GoRestartState} rebuilt with the input before it, up to the first block ending at
 * or after a given input offset, or to the end. Go's blocks are not byte aligned: a segment that
 * starts {@code k} bits into a byte writes that first byte with its low {@code k} bits zero, and
 * its last partial byte with the bits after its end zero, so that consecutive segments merge by
 * OR-ing the byte they share.
 *
 * <p>The compressor steps only when its window is full (or at the end), as Go's does in a single
 * write of the whole input: where the window slides then depends on the input alone, not on how
 * it was cut into writes, so a segment encoded again from the same point writes the same bits.
 * Not thread-safe.
 */
public final class GoSegmentEncoder implements BoundarySegment {

    private final HuffmanBitWriter w;
    private final HashChainCompressor compressor;
    private final long startBit;

    private GoSegmentEncoder(OutputStream out, int level, long startBit) {
        int effective = level == -1 ? 6 : level;
        if (!restartable(level)) {
            throw new IllegalArgumentException("Go level " + level + " has no restart points (levels 4 to 9 hash every position)");
        }
        this.w = new HuffmanBitWriter(Objects.requireNonNull(out, "out"));
        this.compressor = new HashChainCompressor(w, CompressionLevel.of(effective));
        this.startBit = startBit;
        w.startAtBit((int) (startBit & 7));
    }

    /** Whether Go's {@code level} can be encoded in segments: the lazy levels, which hash every position. */
    public static boolean restartable(int level) {
        int effective = level == -1 ? 6 : level;
        return effective >= 4 && effective <= 9 && CompressionLevel.of(effective).fastSkipHashing() == HashChainCompressor.SKIP_NEVER;
    }

    /** A segment from the stream's start. */
    public static GoSegmentEncoder start(OutputStream out, int level) {
        return new GoSegmentEncoder(out, level, 0);
    }

    /**
     * A segment from the block boundary {@code state} at bit {@code startBit} of the stream, with
     * {@code history[offset..offset+length)} the input right before it (its last 32 KiB at least).
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary
     */
    public static GoSegmentEncoder resume(OutputStream out, int level, long startBit, GoRestartState state,
                                          byte[] history, int offset, int length) {
        if (startBit < 0) {
            throw new IllegalArgumentException("a segment cannot start at bit " + startBit);
        }
        GoSegmentEncoder segment = new GoSegmentEncoder(out, level, startBit);
        segment.compressor.resume(history, offset, length, state);
        return segment;
    }

    /** The segment ends with the first block that ends at input offset {@code offset} or later. */
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
        int taken = 0;
        while (taken < length && compressor.stopped() == null) {
            if (compressor.windowFull()) {
                compressor.step(false);
                if (compressor.stopped() != null) {
                    break;
                }
            }
            taken += compressor.fill(data, offset + taken, length - taken);
        }
        return taken;
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

    /** The input ended: writes the last blocks and the final empty block, as Go's {@code Close}. */
    @Override
    public void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }
}
