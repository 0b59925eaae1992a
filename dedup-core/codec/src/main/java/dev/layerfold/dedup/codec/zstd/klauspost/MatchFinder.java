package dev.layerfold.dedup.codec.zstd.klauspost;

/** A level's match finder: turns each block of a frame into literals and sequences, searching the history it keeps. */
abstract class MatchFinder {

    final MatchWindow window;

    MatchFinder(int windowSize) {
        this.window = new MatchWindow(windowSize);
    }

    /** Finds the sequences of the frame's next block, which joins the history (the Go encoders' Encode). */
    abstract void encode(Block block, byte[] data, int offset, int length);

    /** Finds the sequences of a frame's only block, with no history (EncodeNoHist). */
    abstract void encodeAlone(Block block, byte[] data, int offset, int length);

    /**
     * Adds input before a resumed segment's warm-up to the history without searching it: matches
     * the warm-up finds may extend back into it (see {@link KlauspostZstdEncoder#resumedSegment}).
     * The tables then hold positions as the Writer's do ({@link MatchWindow#startAt}).
     *
     * @param position where {@code data[offset]} lies in the frame's content
     */
    final void prime(byte[] data, int offset, int length, long position) {
        window.startAt(position);
        window.add(data, offset, length);
    }

    /**
     * The hash tables whose slots a restart point's patch sets ({@link SlotPatch}), in the order it
     * names them; none at levels without restart points.
     */
    MatchTable[] tables() {
        return new MatchTable[0];
    }

    /**
     * If the block (already in the history) is one byte repeated, more than 3 bytes, files it as its
     * first byte and one match at offset 1, which the block writer turns into an RLE block: the
     * "Check RLE first" of SpeedBetterCompression's and SpeedBestCompression's Encode since 1.17.8.
     */
    static boolean oneByteBlock(Block block, byte[] src, int s, int end) {
        int blockLength = end - s;
        if (blockLength <= 3 || MatchWindow.matchLength(src, s + 1, s, end) != blockLength - 1) {
            return false;
        }
        block.literals.put(src, s, 1);
        block.add(1, blockLength - 1 - 3, 1 + 3);
        return true;
    }

    /** Readies it for a new frame, after one of {@code frameLength} bytes: it then finds what a new one would ({@link MatchWindow#reset}). */
    abstract void reset(long frameLength);
}
