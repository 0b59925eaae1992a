package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;
import java.util.Objects;

/**
 * One segment of a stream whose encoder compresses fixed-size blocks and whose state at a block
 * boundary is rebuilt by a warm-up over the input before it (Go's level 1, Go 1.27's levels 1 to 6;
 * Go's and Go 1.27's levels 0 and -2, which need none or a replay). A warm-up does not rebuild every boundary's state, so a segment asked to {@link #verifyBoundaries
 * verify} its boundaries ends only where a segment resumed there from the input before it goes on
 * exactly as this one; each check costs a warm-up, so where they keep failing they are made ever
 * more rarely. A block is compressed when the next input arrives (or at the end), as the encoders'
 * writers do, so a segment's blocks are the original's. Not thread-safe.
 */
public abstract class VerifiedBlockSegment implements FlushableSegment {

    private final int block;
    private final int history;
    /** The input offset of the block being filled. */
    private long blockStart;
    private long endFrom = Long.MAX_VALUE;
    private boolean stopped;
    /** With {@link #verifyBoundaries}: the input taken, and at least {@link #history} bytes before it. */
    private byte[] recent;
    private int recentLength;
    private int failedChecks;
    private int checksToSkip;

    /**
     * @param block      the input each block holds
     * @param history    the most input before a point a resume reads
     * @param blockStart where the segment starts: 0 or a block boundary
     */
    protected VerifiedBlockSegment(int block, int history, long blockStart) {
        this.block = block;
        this.history = history;
        this.blockStart = blockStart;
    }

    /** Whether the block being filled is full: the next input compresses it. */
    protected abstract boolean blockFull();

    /** Copies as much input into the block being filled as fits; returns how much. */
    protected abstract int fillBlock(byte[] data, int offset, int length);

    /** How much input the block being filled holds. */
    protected abstract int blockFilled();

    /** Compresses the full block, updating whatever state the point records. */
    protected abstract void compressBlock() throws IOException;

    /**
     * Whether a segment resumed at the boundary at {@code input} (bit {@link #bitPosition()}) from
     * {@code history[0..length)}, the input before it, would go on exactly as this one.
     */
    protected abstract boolean rebuiltAt(long input, byte[] history, int length) throws IOException;

    /** The bit of the stream the segment reached. */
    public abstract long bitPosition();

    /** Writes the segment's last bytes, the partial last one padded with zero bits; for a segment that stopped. */
    public abstract void endSegment() throws IOException;

    /** The input ended: writes the last block and the final empty one. */
    public abstract void finish() throws IOException;

    /** The segment ends with the first block boundary at input offset {@code offset} or later that qualifies. */
    public void endAtBlockFrom(long offset) {
        endFrom = offset;
    }

    /**
     * From now on a boundary qualifies only if a segment resumed there goes on exactly as this one:
     * for the proof, which records points where its segments end. {@code history[offset..offset+length)}
     * is the input before this segment's start (as much of the history a resume reads as there is).
     */
    public void verifyBoundaries(byte[] history, int offset, int length) {
        recent = new byte[2 * (this.history + block)];
        recentLength = Math.min(length, this.history);
        System.arraycopy(history, offset + length - recentLength, recent, 0, recentLength);
    }

    /** Takes input; returns how much: all of it, unless the segment reached its end (the rest belongs to the next). */
    public int write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        int taken = 0;
        while (taken < length && !stopped) {
            if (blockFull()) {
                stepBlock();
                if (stopped) {
                    break;
                }
            }
            int n = fillBlock(data, offset + taken, length - taken);
            remember(data, offset + taken, n);
            taken += n;
        }
        return taken;
    }

    /** Compresses the full block taken, if the segment may end after it; true if the segment reached its end. */
    public boolean stepTaken() throws IOException {
        if (!stopped && blockFull()) {
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
        return blockStart + blockFilled();
    }

    /** Compresses a block of the input before the segment again, as a resume's replay does; the next block starts after it. */
    protected void replayBlock() throws IOException {
        compressBlock();
        blockStart += block;
    }

    private void stepBlock() throws IOException {
        replayBlock();
        if (blockStart < endFrom) {
            return;
        }
        if (recent == null) {
            stopped = true;
        } else if (checksToSkip > 0) {
            checksToSkip--;
        } else if (rebuiltAt(blockStart, recent, recentLength)) {
            stopped = true;
        } else {
            checksToSkip = ++failedChecks;
        }
    }

    private void remember(byte[] data, int offset, int n) {
        if (recent == null) {
            return;
        }
        if (recentLength + n > recent.length) {
            int keep = history + block - n;
            System.arraycopy(recent, recentLength - keep, recent, 0, keep);
            recentLength = keep;
        }
        System.arraycopy(data, offset, recent, recentLength, n);
        recentLength += n;
    }
}
