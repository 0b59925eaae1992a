package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.BoundarySegment;
import dev.layerfold.dedup.codec.deflate.FastRestart;
import dev.layerfold.dedup.codec.io.CountingOutput;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;

/**
 * zlib's levels 1 to 9 (default settings) or GNU gzip's encoding one segment of a stream between
 * block boundaries: from the start or from a {@link LazyRestartState} rebuilt with the input before
 * it, up to the first block ending at or after a given input offset, or to the end. Blocks end when
 * the symbol buffer fills (or, in GNU gzip, where its guess says ending pays), at any bit: a segment
 * that starts {@code k} bits into a byte writes that byte with its low {@code k} bits zero, and its
 * last partial byte with the bits after its end zero, so that consecutive segments merge by OR-ing
 * the byte they share. The lazy levels (4 to 9) hash every position, so the 32 KiB before a point
 * rebuild their chains exactly; the fast levels (1 to 3) rebuild them by a warm-up over more input
 * ({@link FastRestart}), which holds only at boundaries {@link #verifyBoundaries verified}.
 *
 * <p>Before its end both encoders work only with at least {@code MIN_LOOKAHEAD} bytes ahead, and
 * every match fits in them, so their output does not depend on how the input was cut into writes: a
 * segment encoded again from the same point writes the same bits, whatever its writes. Not thread-safe.
 */
final class LazySegmentEncoder implements BoundarySegment {

    /** The encoders this covers. */
    public enum Deflate {
        /** zlib 1.2.13's deflate_slow (levels 4 to 9) and deflate_fast (1 to 3), memLevel 8, 32 KiB window, default strategy. */
        ZLIB,
        /** GNU gzip 1.12's own deflate. */
        GNU_GZIP
    }

    private static final int WINDOW = 32 * 1024;

    private final CountingOutput counted;
    private final LazyDeflate deflate;
    private final long startBit;
    /** The input offset the segment starts at. */
    private final long start;

    private LazySegmentEncoder(Deflate encoder, OutputStream out, int level, long startBit, long start) {
        if (!restartable(level)) {
            throw new IllegalArgumentException(encoder + " level " + level + " has no restart points (level 0 stores its input)");
        }
        if (startBit < 0) {
            throw new IllegalArgumentException("a segment cannot start at bit " + startBit);
        }
        this.counted = new CountingOutput(Objects.requireNonNull(out, "out"));
        this.deflate = switch (encoder) {
            case ZLIB -> new DeflateState(new PendingOutput(counted), ZlibSettings.of(level));
            case GNU_GZIP -> GnuGzipEncoder.create(counted, level).segments();
        };
        this.startBit = startBit;
        this.start = start;
    }

    /**
     * Whether {@code level} can be encoded in segments: every level but 0. The lazy levels (4 to 9) hash
     * every position, so any block boundary is a point; the fast levels (1 to 3) rebuild their chains by
     * a warm-up ({@link FastRestart}), and only boundaries {@link #verifyBoundaries verified} are.
     */
    public static boolean restartable(int level) {
        return level >= 1 && level <= 9;
    }

    /** How much input before a point at {@code level} a resume reads: a window, or the fast levels' warm-up. */
    public static int history(int level) {
        return LazyRestartState.fastLevel(level) ? FastRestart.WARM_UP : WINDOW;
    }

    /** How much input past a boundary an encoder at {@code level} may read before it ends a segment there: its window, or the fast levels' check. */
    public static int lookahead(int level) {
        return LazyRestartState.fastLevel(level) ? FastRestart.LOOKAHEAD : 2 * WINDOW;
    }

    /**
     * For the proof, before any input: the segment ends only at a boundary where a segment resumed
     * there goes on exactly as this one (the fast levels check it by a warm-up; the lazy levels'
     * boundaries all hold). {@code history[offset..offset+length)} is the input before the segment's
     * start, as much of the {@link #history} as there is.
     */
    @Override
    public void verifyBoundaries(byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        deflate.verifyBoundaries(history, offset, length, start);
    }

    /** A segment from the stream's start. */
    public static LazySegmentEncoder start(Deflate encoder, OutputStream out, int level) {
        return new LazySegmentEncoder(encoder, out, level, 0, 0);
    }

    /**
     * A segment from the block boundary {@code state} at bit {@code startBit} of the stream, with
     * {@code history[offset..offset+length)} the input right before it (its last {@link #history} bytes at least).
     *
     * @throws IllegalArgumentException if the state cannot be a block boundary
     */
    public static LazySegmentEncoder resume(Deflate encoder, OutputStream out, int level, long startBit, LazyRestartState state,
                                            byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        LazySegmentEncoder segment = new LazySegmentEncoder(encoder, out, level, startBit, state.input());
        segment.deflate.resume(state, history, offset, length, (int) (startBit & 7));
        return segment;
    }

    /** The segment ends with the first block that ends at input offset {@code offset} or later. */
    @Override
    public void endAtBlockFrom(long offset) {
        deflate.stopAtBlockFrom(offset);
    }

    /**
     * Takes input; returns how much it took: all of it, unless the segment reached its end block
     * (then the rest, and what it had read ahead of the boundary, belongs to the next segment).
     */
    @Override
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (stopped().isPresent()) {
            return 0;
        }
        try {
            return deflate.take(data, offset, length);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Where the segment ended (the next segment's start), once its end block was written. */
    @Override
    public Optional<LazyRestartState> stopped() {
        return Optional.ofNullable(deflate.stopped());
    }

    /** The bit of the stream the segment reached. */
    @Override
    public long bitPosition() throws IOException {
        int bits;
        try {
            bits = deflate.flushWholeBytes();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return startBit - (startBit & 7) + 8 * counted.count() + bits;
    }

    /** Writes the segment's last byte, padded with zero bits; for a segment that stopped. */
    @Override
    public void endSegment() throws IOException {
        if (deflate.stopped() == null) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        try {
            deflate.endSegment();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The input ended: writes the last block. */
    @Override
    public void finish() throws IOException {
        try {
            deflate.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
