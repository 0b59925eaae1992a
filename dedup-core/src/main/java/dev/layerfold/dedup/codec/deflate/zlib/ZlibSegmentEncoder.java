package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.CountingOutput;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;

/**
 * zlib's levels 4 to 9 (default settings) encoding one segment of a stream between block boundaries:
 * from the start or from a {@link ZlibRestartState} rebuilt with the input before it, up to the
 * first block ending at or after a given input offset, or to the end. Blocks end when the symbol
 * buffer fills, at any bit: a segment that starts {@code k} bits into a byte writes that byte with
 * its low {@code k} bits zero, and its last partial byte with the bits after its end zero, so that
 * consecutive segments merge by OR-ing the byte they share.
 *
 * <p>Without flushes zlib's output does not depend on how its input was cut into deflate() calls
 * (it works only with at least {@code MIN_LOOKAHEAD} bytes ahead, and every match fits in them), so a
 * segment encoded again from the same point writes the same bits, whatever its writes. Not thread-safe.
 */
public final class ZlibSegmentEncoder {

    private final CountingOutput counted;
    private final DeflateState state;
    private final long startBit;

    private ZlibSegmentEncoder(OutputStream out, int level, long startBit) {
        if (!restartable(level)) {
            throw new IllegalArgumentException("zlib level " + level + " has no restart points (levels 4 to 9 hash every position)");
        }
        if (startBit < 0) {
            throw new IllegalArgumentException("a segment cannot start at bit " + startBit);
        }
        this.counted = new CountingOutput(Objects.requireNonNull(out, "out"));
        this.state = new DeflateState(new PendingOutput(counted), ZlibSettings.of(level));
        this.startBit = startBit;
    }

    /** Whether zlib's {@code level} can be encoded in segments: deflate_slow's, which hash every position. */
    public static boolean restartable(int level) {
        return level >= 4 && level <= 9;
    }

    /** A segment from the stream's start. */
    public static ZlibSegmentEncoder start(OutputStream out, int level) {
        return new ZlibSegmentEncoder(out, level, 0);
    }

    /**
     * A segment from the block boundary {@code state} at bit {@code startBit} of the stream, with
     * {@code history[offset..offset+length)} the input right before it (its last 32 KiB at least).
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary
     */
    public static ZlibSegmentEncoder resume(OutputStream out, int level, long startBit, ZlibRestartState state,
                                            byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        ZlibSegmentEncoder segment = new ZlibSegmentEncoder(out, level, startBit);
        segment.state.resume(state, history, offset, length, (int) (startBit & 7));
        return segment;
    }

    /** The segment ends with the first block that ends at input offset {@code offset} or later. */
    public void endAtBlockFrom(long offset) {
        state.stopAtBlockFrom(offset);
    }

    /**
     * Takes input; returns how much it took: all of it, unless the segment reached its end block
     * (then the rest, and what it had read ahead of the boundary, belongs to the next segment).
     */
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (stopped().isPresent()) {
            return 0;
        }
        run(() -> state.deflate(data, offset, length, DeflateState.NO_FLUSH));
        return length - state.unread();
    }

    /** Where the segment ended (the next segment's start), once its end block was written. */
    public Optional<ZlibRestartState> stopped() {
        return Optional.ofNullable(state.stopped());
    }

    /** The bit of the stream the segment reached. */
    public long bitPosition() throws IOException {
        int[] bits = new int[1];
        run(() -> bits[0] = state.flushWholeBytes());
        return startBit - (startBit & 7) + 8 * counted.count() + bits[0];
    }

    /** Writes the segment's last byte, padded with zero bits; for a segment that stopped. */
    public void endSegment() throws IOException {
        if (state.stopped() == null) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        run(state::endSegment);
    }

    /** The input ended: writes the last block, as deflate(Z_FINISH). */
    public void finish() throws IOException {
        run(() -> state.deflate(new byte[0], 0, 0, DeflateState.FINISH));
    }

    private static void run(Runnable call) throws IOException {
        try {
            call.run();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
