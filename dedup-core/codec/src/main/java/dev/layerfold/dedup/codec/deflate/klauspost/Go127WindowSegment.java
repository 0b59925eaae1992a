package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.VerifiedBlockSegment;
import dev.layerfold.dedup.codec.io.CountingOutput;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.function.Function;

/**
 * One segment of a Go 1.27 stream at a level whose compressor writes each window as blocks of its
 * own (levels 1 to 6, 0 and -2): what crosses a window boundary is the bit writer's partial last byte
 * and the Huffman table the last windows left open, whose age in windows is a point's one state
 * value. A resume replays the windows since that table was opened into nothing, then writes on from
 * the original's bit offset ({@link #continueTo}). Not thread-safe.
 */
abstract class Go127WindowSegment<C extends Compressor.Blockwise> extends VerifiedBlockSegment {

    final int level;
    final HuffmanBitWriter w;
    final C compressor;
    private CountingOutput out;
    private final long startBit;
    /** Windows since the open table was opened; 0 with none open. */
    int age;

    /**
     * @param tablePenalty the Huffman table penalty KlauspostFlateEncoder gives the level
     * @param compressor   the level's compressor, writing to the writer it is given
     */
    Go127WindowSegment(OutputStream sink, int level, long startBit, long blockStart, int block, int history, int tablePenalty,
                       Function<HuffmanBitWriter, C> compressor) {
        super(block, history, blockStart);
        this.level = level;
        this.out = new CountingOutput(Objects.requireNonNull(sink, "sink"));
        this.w = new HuffmanBitWriter(out, tablePenalty, FlateRelease.GO_1_27);
        this.compressor = compressor.apply(w);
        this.startBit = startBit;
    }

    /** After the replay into nothing, writes the segment to {@code out}, from the original's bit offset. */
    final void continueTo(OutputStream out) {
        this.out = new CountingOutput(Objects.requireNonNull(out, "out"));
        w.continueAt(this.out, (int) (startBit & 7));
    }

    @Override
    public final long bitPosition() {
        return startBit - (startBit & 7) + 8 * out.count() + w.pendingBits();
    }

    /** Writes the segment's last bytes, the partial last one padded with zero bits, leaving the table open; for a segment that stopped. */
    @Override
    public final void endSegment() throws IOException {
        if (!stopped()) {
            throw new IllegalStateException("the segment has not reached its end block");
        }
        w.writePending();
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
        int opened = w.tablesOpened();
        compressor.step(false);
        age = !w.tableOpen() ? 0 : w.tablesOpened() != opened ? 1 : age + 1;
    }
}
