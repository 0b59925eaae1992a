package dev.layerfold.dedup.codec.zstd.klauspost;

/** The codes of literal lengths, match lengths and offsets (RFC 8878 3.1.1.3.2.1), and their predefined tables. */
final class SequenceCodes {

    static final int[] LITERAL_LENGTH_BITS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11,
            12, 13, 14, 15, 16};
    static final int[] MATCH_LENGTH_BITS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

    static final SequenceTable LITERAL_LENGTHS = SequenceTable.predefined(6, new short[] {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2,
            2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1}, LITERAL_LENGTH_BITS);
    static final SequenceTable OFFSETS = SequenceTable.predefined(5, new short[] {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
            1, 1, 1, 1, 1, -1, -1, -1, -1, -1}, null);
    static final SequenceTable MATCH_LENGTHS = SequenceTable.predefined(6, new short[] {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1}, MATCH_LENGTH_BITS);

    private static final byte[] LITERAL_LENGTH_CODE = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 17, 17, 18, 18, 19, 19,
            20, 20, 20, 20, 21, 21, 21, 21, 22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 23, 23, 24, 24, 24, 24, 24, 24, 24, 24,
            24, 24, 24, 24, 24, 24, 24, 24};
    private static final byte[] MATCH_LENGTH_CODE = new byte[128];

    static {
        for (int i = 0; i < 32; i++) {
            MATCH_LENGTH_CODE[i] = (byte) i;
        }
        int[][] runs = {{32, 2}, {33, 2}, {34, 2}, {35, 2}, {36, 4}, {37, 4}, {38, 8}, {39, 8}, {40, 16}, {41, 16}, {42, 32}};
        int at = 32;
        for (int[] run : runs) {
            for (int i = 0; i < run[1]; i++) {
                MATCH_LENGTH_CODE[at++] = (byte) run[0];
            }
        }
    }

    private SequenceCodes() {
    }

    static int literalLengthCode(int literalLength) {
        return literalLength <= 63 ? LITERAL_LENGTH_CODE[literalLength] : FseTable.highBit(literalLength) + 19;
    }

    /** @param matchLength the match length minus 3 */
    static int matchLengthCode(int matchLength) {
        return matchLength <= 127 ? MATCH_LENGTH_CODE[matchLength] : FseTable.highBit(matchLength) + 36;
    }

    /** @param offset the offset value as coded: 1-3 a repeat, else the distance plus 3 */
    static int offsetCode(int offset) {
        return FseTable.highBit(offset);
    }
}
