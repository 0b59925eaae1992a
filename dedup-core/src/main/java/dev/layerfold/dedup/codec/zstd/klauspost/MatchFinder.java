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
     * the warm-up finds may extend back into it (see {@link KlauspostSegmentEncoder}).
     */
    final void prime(byte[] data, int offset, int length) {
        window.add(data, offset, length);
    }

    /** Readies it for a new frame, after one of {@code frameLength} bytes: it then finds what a new one would ({@link MatchWindow#reset}). */
    abstract void reset(long frameLength);
}
