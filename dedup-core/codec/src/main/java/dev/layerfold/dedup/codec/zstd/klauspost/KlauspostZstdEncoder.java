package dev.layerfold.dedup.codec.zstd.klauspost;

import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;

import java.io.IOException;
import java.io.OutputStream;

/**
 * klauspost/compress/zstd's streaming Writer ({@code zstd.NewWriter(w, WithEncoderLevel(level))},
 * Write then Close), as containers/image, containerd and BuildKit write tar+zstd layers: input is
 * cut into blocks (128 KiB; 64 KiB at SpeedFastest), each compressed with the history of the last window as soon as it is
 * full; the frame header (window, checksum flag, no size) goes before the first block. Close writes
 * the last block, or an empty raw one if the input ended on a block boundary, then the checksum.
 * Input that never filled a block is instead written as one whole frame (EncodeAll: its size in
 * the header, no history), and no input at all as a streamed frame of one empty block. The Writer's concurrent mode hands the
 * same blocks the same state, so its output equals this single-threaded one's.
 *
 * <p>Flush, and ReadFrom (io.Copy into the Writer, as containers/storage's zstd:chunked compressor
 * ends its last frame), push the pending partial block out mid-frame; blocks then fill up again
 * from there. Where that happened depends on the producer's calls, not on the input, so it is
 * given: the flush points, content offsets at which a block ends short of the block size.
 */
public final class KlauspostZstdEncoder implements ZstdEncoder {

    static final int MIN_WINDOW_LOG = 10;
    private static final int MIN_WINDOW = 1 << MIN_WINDOW_LOG;

    private OutputStream sink;
    private final int windowSize;
    private final byte[] filling;
    private int filled;
    /** Null in a resumed segment ({@link #resumedSegment}): the frame's checksum covers all of its content. A new one per frame. */
    private XxHash64 checksum;
    final MatchFinder matcher;
    private final Block block = new Block();
    private final BlockWriter blocks;
    private final Bytes out = new Bytes(128 * 1024 + 64);
    private long[] flushPoints;
    private int nextFlush;
    private long written;
    private boolean headerWritten;
    private boolean finished;

    public KlauspostZstdEncoder(KlauspostSettings settings, OutputStream sink) {
        this(settings, new long[0], sink);
    }

    /** @param flushPoints content offsets, ascending, where the producer flushed a partial block (Flush, or ReadFrom's start) */
    public KlauspostZstdEncoder(KlauspostSettings settings, long[] flushPoints, OutputStream sink) {
        this(settings, flushPoints, sink, new XxHash64());
    }

    private KlauspostZstdEncoder(KlauspostSettings settings, long[] flushPoints, OutputStream sink, XxHash64 checksum) {
        this.sink = sink;
        this.flushPoints = flushPoints.clone();
        this.checksum = checksum;
        this.windowSize = settings.windowSize();
        this.filling = new byte[settings.blockSize()];
        this.matcher = settings.matchFinder();
        this.blocks = new BlockWriter(settings.release(), settings.level() > KlauspostSettings.SPEED_DEFAULT);
    }

    /**
     * Starts a new frame, as the Writer's Reset does between zstd:chunked's files: what follows is
     * written as a new encoder would write it, without the cost of new match tables.
     */
    public void reset(long[] flushPoints, OutputStream sink) {
        matcher.reset(written);
        this.flushPoints = flushPoints.clone();
        this.sink = sink;
        nextFlush = 0;
        written = 0;
        filled = 0;
        checksum = new XxHash64();
        blocks.reset();
        headerWritten = false;
        finished = false;
    }

    /**
     * The encoder of a segment of a streamed frame from a block boundary past its first block,
     * without the frame's checksum (which covers all of the content), its state rebuilt by a warm-up:
     * the input before the last {@code warmUp} bytes of {@code history} only joins the window, those
     * are encoded as the frame's blocks were, into nothing. Where the warm-up covers all of the input
     * before the point the state is the Writer's own; a shorter one leaves neither the match finder's
     * tables (they keep positions from the whole window) nor mostly the entropy state as the Writer's:
     * a restart point carries the slots and the state that differ ({@link #restartSegment}).
     *
     * @param history  the input before the point, a block boundary; its last {@code warmUp} bytes, a
     *                 multiple of the block size, are encoded again (the earlier ones only join the window)
     * @param position where {@code history[offset]} lies in the frame's content
     */
    public static KlauspostZstdEncoder resumedSegment(KlauspostSettings settings, byte[] history, int offset, int length, int warmUp,
                                                      long position, OutputStream sink) {
        if (warmUp % settings.blockSize() != 0 || warmUp > length || warmUp == 0) {
            throw new IllegalArgumentException("a warm-up of " + warmUp + " bytes is not whole blocks of the " + length + " given");
        }
        KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(settings, new long[0], sink, null);
        encoder.headerWritten = true;
        int primed = length - warmUp;
        encoder.matcher.prime(history, offset, primed, position);
        Bytes discarded = new Bytes(encoder.out.data.length);
        for (int at = offset + primed; at < offset + length; at += encoder.filling.length) {
            encoder.block.reset();
            encoder.matcher.encode(encoder.block, history, at, encoder.filling.length);
            discarded.clear();
            encoder.blocks.write(encoder.block, history, at, false, discarded);
        }
        return encoder;
    }

    /**
     * The encoder of the segment from a restart point of a frame without flush points
     * ({@link KlauspostFrameProver}): at the frame's start, the frame's header and blocks; else its
     * blocks, from a warm-up of up to {@code warmUp} bytes before the point and the point's patch
     * ({@link SlotPatch}), or at SpeedBestCompression from tables replayed by the point's record
     * ({@link IndexReplay}), with no warm-up. Never the checksum, which covers all of the content.
     *
     * @param patch   the point's patch, or at SpeedBestCompression its index record
     * @param history the input before the point, the last {@link #restartHistory} bytes of it
     * @throws IllegalArgumentException if the point, its history or its patch do not fit
     */
    public static KlauspostZstdEncoder restartSegment(KlauspostSettings settings, long point, byte[] patch, int warmUp, byte[] history,
                                                      int offset, int length, OutputStream sink) {
        if (point % settings.blockSize() != 0 || length != restartHistory(settings, point)
                || point == 0 && patch.length > 0) {
            throw new IllegalArgumentException("no restart point at content offset " + point + " with " + length + " bytes before it and a patch of "
                    + patch.length + " bytes at " + settings);
        }
        if (point == 0) {
            return new KlauspostZstdEncoder(settings, new long[0], sink, null);
        }
        if (settings.replaysIndexing()) {
            return replayedSegment(settings, patch, history, offset, length, point - length, sink);
        }
        KlauspostZstdEncoder encoder = resumedSegment(settings, history, offset, length, (int) Math.min(warmUp, point), point - length, sink);
        SlotPatch.apply(patch, encoder.matcher, encoder.blocks);
        return encoder;
    }

    /** A segment's encoder whose history only joins the window, its tables and entropy state then set by {@code record}. */
    private static KlauspostZstdEncoder replayedSegment(KlauspostSettings settings, byte[] record, byte[] history, int offset, int length,
                                                        long position, OutputStream sink) {
        KlauspostZstdEncoder encoder = new KlauspostZstdEncoder(settings, new long[0], sink, null);
        encoder.headerWritten = true;
        encoder.matcher.prime(history, offset, length, position);
        IndexReplay.apply(record, (BestMatcher) encoder.matcher, encoder.blocks);
        return encoder;
    }

    /** How much of the input before a restart point its segment's encoder needs: the window's worth, or all there is. */
    public static int restartHistory(KlauspostSettings settings, long point) {
        return (int) Math.min(settings.windowSize(), point);
    }

    /** The entropy state the next block starts from, as a restart point records it ({@link BlockWriter#state}). */
    byte[] entropyState() {
        return blocks.state();
    }

    /** Starts the next block from {@code state} ({@link #entropyState}). */
    void setEntropyState(byte[] state) {
        blocks.setState(state);
    }

    /** Whether the next block would be entropy-coded alike by both (the match finder aside). */
    boolean sameEntropyState(KlauspostZstdEncoder other) {
        return blocks.sameState(other.blocks);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (checksum != null) {
            checksum.update(data, offset, length);
        }
        while (length > 0) {
            int n = Math.min(length, filling.length - filled);
            if (nextFlush < flushPoints.length) {
                n = (int) Math.min(n, flushPoints[nextFlush] - written);
            }
            System.arraycopy(data, offset, filling, filled, n);
            filled += n;
            written += n;
            offset += n;
            length -= n;
            boolean flushed = nextFlush < flushPoints.length && written == flushPoints[nextFlush];
            if (flushed) {
                nextFlush++;
            }
            if (filled == filling.length || flushed && filled > 0) {
                streamBlock(false);
            }
        }
    }

    private void streamBlock(boolean last) throws IOException {
        out.clear();
        if (!headerWritten) {
            streamHeader(out);
            headerWritten = true;
        }
        block.reset();
        matcher.encode(block, filling, 0, filled);
        blocks.write(block, filling, 0, last, out);
        filled = 0;
        sink.write(out.data, 0, out.length);
    }

    /** The streamed frame's header: magic, checksum flag, the window; no size (the Writer was not told it). */
    private void streamHeader(Bytes to) {
        to.putLittleEndian(0xFD2FB528L, 4);
        to.put(0x04);
        to.put((32 - Integer.numberOfLeadingZeros(windowSize - 1) - 10) << 3);
    }

    /** The header EncodeAll writes for a frame of {@code size} bytes. */
    static void wholeFrameHeader(int size, int windowSize, Bytes to) {
        boolean singleSegment = size <= windowSize && size > MIN_WINDOW;
        int window = size < windowSize ? Math.max(MIN_WINDOW, Integer.highestOneBit(size) << 1) : windowSize;
        int sizeFieldCode = size >= 256 + 65536 ? 2 : size >= 256 ? 1 : 0;
        to.putLittleEndian(0xFD2FB528L, 4);
        to.put(0x04 | (singleSegment ? 0x20 : 0) | sizeFieldCode << 6);
        if (!singleSegment) {
            to.put((32 - Integer.numberOfLeadingZeros(window - 1) - 10) << 3);
        }
        switch (sizeFieldCode) {
            case 0 -> {
                if (singleSegment) {
                    to.put(size);
                }
            }
            case 1 -> to.putLittleEndian(size - 256, 2);
            default -> to.putLittleEndian(size, 4);
        }
    }

    @Override
    public void drain() {
        // every full block went to the sink as it was made
    }

    @Override
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("the frame was already ended");
        }
        finished = true;
        if (!headerWritten && filled > 0) {
            wholeFrame();
            return;
        }
        if (!headerWritten) {
            // No input: since 1.18.5 (WithZeroFrames on by default) the Writer streams an empty frame;
            // before, it wrote nothing at all, so no frame of theirs is empty and this one is theirs too
            out.clear();
            streamHeader(out);
            headerWritten = true;
            sink.write(out.data, 0, out.length);
        }
        if (filled == 0) {
            out.clear();
            BlockWriter.header(true, 0, 0, out);
            sink.write(out.data, 0, out.length);
        } else {
            streamBlock(true);
        }
        writeChecksum();
    }

    /** EncodeAll of a frame's only block: a header with its size, the block found without history. */
    private void wholeFrame() throws IOException {
        out.clear();
        wholeFrameHeader(filled, windowSize, out);
        block.reset();
        matcher.encodeAlone(block, filling, 0, filled);
        blocks.write(block, filling, 0, true, out);
        sink.write(out.data, 0, out.length);
        writeChecksum();
    }

    private void writeChecksum() throws IOException {
        if (checksum == null) {
            return;
        }
        sink.write(checksum.frameChecksum());
    }

    @Override
    public void close() {
        finished = true;
    }
}
