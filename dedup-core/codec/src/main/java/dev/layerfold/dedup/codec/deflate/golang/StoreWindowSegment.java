package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.Function;

/**
 * One segment of a Go 1.8-1.26 stream at a level whose {@link StoreWindowCompressor} writes each
 * 65535-byte window as one block of its own (levels 1, 0 and -2): block boundaries lie at multiples
 * of {@link #BLOCK}, and the bit writer holds nothing across one but the partial last byte, so a
 * segment starts with the original's bit offset and whatever state its compressor keeps. Not
 * thread-safe.
 */
abstract class StoreWindowSegment<C extends StoreWindowCompressor> extends VerifiedBlockSegment {

    /** The input each block holds: points lie at multiples of it. */
    public static final int BLOCK = HuffmanBitWriter.MAX_STORE_BLOCK_SIZE;

    final C compressor;
    private final HuffmanBitWriter w;
    private final long startBit;

    /**
     * @param history    the most input before a point a resume reads
     * @param compressor the level's compressor, writing to the writer it is given
     */
    StoreWindowSegment(OutputStream out, long startBit, long blockStart, int history, Function<HuffmanBitWriter, C> compressor) {
        super(BLOCK, history, blockStart);
        this.w = new HuffmanBitWriter(Objects.requireNonNull(out, "out"));
        this.compressor = compressor.apply(w);
        this.startBit = startBit;
        w.startAtBit((int) (startBit & 7));
    }

    /** Whether bit {@code startBit} and input offset {@code input} can be a block boundary's (past the stream's start). */
    static boolean blockBoundary(long startBit, long input) {
        return startBit >= 0 && input > 0 && input % BLOCK == 0;
    }

    @Override
    public final long bitPosition() {
        return startBit - (startBit & 7) + w.bitPosition();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits; for a segment that stopped. */
    @Override
    public final void endSegment() throws IOException {
        if (!stopped()) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.flush();
    }

    /** Go's {@code Writer.Flush}, for the last segment of a stream flushed before its end. */
    @Override
    public final void flush() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, false);
        w.flush();
    }

    /** The input ended: writes the last block and the final empty one, as Go's {@code Close}. */
    @Override
    public final void finish() throws IOException {
        compressor.step(true);
        w.writeStoredHeader(0, true);
        w.flush();
    }

    @Override
    protected final boolean blockFull() {
        return compressor.full();
    }

    @Override
    protected final int fillBlock(byte[] data, int offset, int length) {
        return compressor.fill(data, offset, length);
    }

    @Override
    protected final int blockFilled() {
        return compressor.windowEnd;
    }

    @Override
    protected final void compressBlock() throws IOException {
        compressor.step(false);
    }
}
