package dev.layerfold.dedup.codec.zstd.klauspost;

/** A level's match finder: turns each block of a frame into literals and sequences. */
interface MatchFinder {

    /** Finds the sequences of the frame's next block, which joins the history (the Go encoders' Encode). */
    void encode(Block block, byte[] data, int offset, int length);

    /** Finds the sequences of a frame's only block, with no history (EncodeNoHist). */
    void encodeAlone(Block block, byte[] data, int offset, int length);
}
