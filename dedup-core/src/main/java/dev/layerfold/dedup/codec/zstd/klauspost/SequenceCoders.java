package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * The current and previous table of one sequence code across a frame's blocks, and how a block
 * picks its mode (compress 1.18.0 blockenc.go's chooseComp and seqenc.go's setPrev): the
 * predefined table if it is no worse than the previous and a new one, else the previous (repeat
 * mode) if no worse than a new one with its description and a small penalty, else the new table,
 * which then becomes the previous one.
 */
final class SequenceCoders {

    static final int MODE_PREDEFINED = 0;
    static final int MODE_RLE = 1;
    static final int MODE_NEW = 2;
    static final int MODE_REPEAT = 3;

    private final SequenceTable predefined;
    /** The table the next block's histogram goes into. */
    SequenceTable current = new SequenceTable();
    private SequenceTable previous = new SequenceTable();

    SequenceCoders(SequenceTable predefined) {
        this.predefined = predefined;
    }

    /** A new frame: no previous table. */
    void forgetPrevious() {
        previous.symbolLen = 0;
    }

    /** The table to code this block's (normalized) histogram with, and its mode. */
    SequenceTable choose() {
        long nSize = (current.approxSize(current.count, current.symbolLen) + current.maxHeaderSize()) & 0xFFFFFFFFL;
        long predefinedSize = predefined.approxSize(current.count, current.symbolLen);
        long previousSize = previous.approxSize(current.count, current.symbolLen);
        nSize = (nSize + ((nSize + 2 * 8 * 16) >>> 4)) & 0xFFFFFFFFL;
        if (predefinedSize <= previousSize && predefinedSize <= nSize) {
            return predefined;
        }
        return previousSize <= nSize ? previous : current;
    }

    int mode(SequenceTable chosen) {
        if (chosen.useRle) {
            return MODE_RLE;
        }
        return chosen == predefined ? MODE_PREDEFINED : chosen == previous ? MODE_REPEAT : MODE_NEW;
    }

    /** After a compressed block: a new or RLE table becomes the previous one; a predefined one leaves none. */
    void used(SequenceTable used) {
        if (used == current) {
            SequenceTable swap = previous;
            previous = current;
            current = swap;
            current.reused = false;
            previous.reused = true;
        } else if (used != previous) {
            previous.symbolLen = 0;
        }
    }
}
