package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * What the match finder made of one block: its literals and its sequences (literal length, match
 * length minus 3, and the offset value as coded: 1 for the last offset, else the distance plus 3).
 */
final class Block {

    final Bytes literals = new Bytes(128 * 1024);
    int[] literalLengths = new int[2048];
    int[] matchLengths = new int[2048];
    int[] offsets = new int[2048];
    int sequences;
    /** The block's content length. */
    int size;

    void reset() {
        literals.clear();
        sequences = 0;
        size = 0;
    }

    void add(int literalLength, int matchLength, int offset) {
        if (sequences == offsets.length) {
            literalLengths = java.util.Arrays.copyOf(literalLengths, sequences * 2);
            matchLengths = java.util.Arrays.copyOf(matchLengths, sequences * 2);
            offsets = java.util.Arrays.copyOf(offsets, sequences * 2);
        }
        literalLengths[sequences] = literalLength;
        matchLengths[sequences] = matchLength;
        offsets[sequences] = offset;
        sequences++;
    }
}
