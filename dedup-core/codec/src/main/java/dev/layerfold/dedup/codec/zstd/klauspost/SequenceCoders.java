package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * The current and previous table of one sequence code across a frame's blocks, and how a block
 * picks its mode (compress 1.18.0 blockenc.go's chooseComp and seqenc.go's setPrev): the
 * predefined table if it is no worse than the previous and a new one, else the previous (repeat
 * mode) if no worse than a new one with its description's bound and a small penalty (1.20.3: with
 * its actual description), else the new table, which then becomes the previous one.
 */
final class SequenceCoders {

    static final int MODE_PREDEFINED = 0;
    static final int MODE_RLE = 1;
    static final int MODE_NEW = 2;
    static final int MODE_REPEAT = 3;

    private final SequenceTable predefined;
    private final boolean pricesDescriptions;
    /** Each code's extra bits ({@link SequenceTable#setBits}), to set up a previous table read back. */
    private final int[] extraBits;
    /** The table the next block's histogram goes into. */
    SequenceTable current = new SequenceTable();
    private SequenceTable previous = new SequenceTable();
    private final Bytes description = new Bytes(64);

    /** @param pricesDescriptions compress 1.20.3's pricing ({@link KlauspostSettings.Release#pricesTableDescriptions}) */
    SequenceCoders(SequenceTable predefined, boolean pricesDescriptions, int[] extraBits) {
        this.predefined = predefined;
        this.pricesDescriptions = pricesDescriptions;
        this.extraBits = extraBits;
    }

    /** A new frame: no previous table, as in a new coder (what the previous was is then never read). */
    void reset() {
        previous.symbolLen = 0;
        previous.reused = false;
    }

    /** Whether the next block would choose and code alike with both: the same previous table, or none usable. */
    boolean sameState(SequenceCoders other) {
        boolean usable = previous.symbolLen > 0 && !previous.useRle;
        boolean otherUsable = other.previous.symbolLen > 0 && !other.previous.useRle;
        if (!usable || !otherUsable) {
            return usable == otherUsable;
        }
        return previous.symbolLen == other.previous.symbolLen && previous.table.tableLog == other.previous.table.tableLog
                && java.util.Arrays.equals(previous.norm, 0, previous.symbolLen, other.previous.norm, 0, other.previous.symbolLen);
    }

    /** Writes the state {@link #sameState} compares: whether there is a usable previous table, and its log and counts. */
    void writeState(java.io.DataOutputStream out) throws java.io.IOException {
        boolean usable = previous.symbolLen > 0 && !previous.useRle;
        out.writeByte(usable ? previous.symbolLen : 0);
        if (usable) {
            out.writeByte(previous.table.tableLog);
            for (int i = 0; i < previous.symbolLen; i++) {
                out.writeShort(previous.norm[i]);
            }
        }
    }

    /** Takes the state {@link #writeState} wrote: the previous table rebuilt from its log and counts, as the block that made it left it. */
    void readState(java.io.DataInputStream in) throws java.io.IOException {
        int symbolLen = in.readUnsignedByte();
        previous.useRle = false;
        previous.predefined = false;
        previous.reused = false;
        previous.symbolLen = symbolLen;
        if (symbolLen == 0) {
            return;
        }
        int tableLog = in.readUnsignedByte();
        if (symbolLen > previous.norm.length || tableLog < 1 || tableLog > 9) {
            throw new java.io.IOException("a sequence table of " + symbolLen + " symbols and log " + tableLog);
        }
        for (int i = 0; i < symbolLen; i++) {
            previous.norm[i] = in.readShort();
        }
        previous.table.build(previous.norm, symbolLen, tableLog);
        previous.setBits(extraBits);
        previous.reused = true;
    }

    /** The table to code this block's (normalized) histogram with, and its mode. */
    SequenceTable choose() {
        long nSize = (current.approxSize(current.count, current.symbolLen) + current.maxHeaderSize()) & 0xFFFFFFFFL;
        long predefinedSize = predefined.approxSize(current.count, current.symbolLen);
        long previousSize = previous.approxSize(current.count, current.symbolLen);
        nSize = (nSize + ((nSize + 2 * 8 * 16) >>> 4)) & 0xFFFFFFFFL;
        long nSizeAgainstPrevious = nSize;
        if (pricesDescriptions) {
            // 1.20.3: against the previous table a new one costs its actual description, not the bound with a penalty; every size adds its table log
            if (previousSize != SequenceTable.UNUSABLE) {
                description.clear();
                current.writeDescription(description);
                nSizeAgainstPrevious = (current.approxSize(current.count, current.symbolLen) + description.length * 8L) & 0xFFFFFFFFL;
            }
            nSize = (nSize + current.table.tableLog) & 0xFFFFFFFFL;
            nSizeAgainstPrevious = (nSizeAgainstPrevious + current.table.tableLog) & 0xFFFFFFFFL;
            if (predefinedSize != SequenceTable.UNUSABLE) {
                predefinedSize = (predefinedSize + predefined.table.tableLog) & 0xFFFFFFFFL;
            }
            if (previousSize != SequenceTable.UNUSABLE) {
                previousSize = (previousSize + previous.table.tableLog) & 0xFFFFFFFFL;
            }
        }
        if (predefinedSize <= previousSize && predefinedSize <= nSize) {
            return predefined;
        }
        return previousSize <= nSizeAgainstPrevious ? previous : current;
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
