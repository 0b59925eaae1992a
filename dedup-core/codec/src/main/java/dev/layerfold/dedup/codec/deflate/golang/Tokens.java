package dev.layerfold.dedup.codec.deflate.golang;

/**
 * The LZ77 token encoding and the length/offset code tables, ported from Go's
 * {@code compress/flate/token.go}.
 *
 * <p>A token is an {@code int}: a literal is its byte value (256 is the end-of-block marker); a
 * match is {@code MATCH_TYPE + (length - 3) << 22 + (offset - 1)}. Every token is non-negative, so
 * a signed {@code token < MATCH_TYPE} is Go's unsigned comparison.
 */
final class Tokens {

    static final int LENGTH_SHIFT = 22;
    static final int OFFSET_MASK = (1 << LENGTH_SHIFT) - 1;
    static final int MATCH_TYPE = 1 << 30;

    /** The length code for a match of length X is {@code LENGTH_CODES[X - 3]}. */
    private static final byte[] LENGTH_CODES = new byte[256];

    private static final byte[] OFFSET_CODES = new byte[256];

    static {
        // The same tables Go spells out literally, derived from the RFC 1951 length and distance
        // bases that HuffmanBitWriter holds.
        for (int code = 0; code < 29; code++) {
            int first = HuffmanBitWriter.LENGTH_BASE[code];
            int last = code == 28 ? 255 : HuffmanBitWriter.LENGTH_BASE[code + 1] - 1;
            for (int xlength = first; xlength <= last; xlength++) {
                LENGTH_CODES[xlength] = (byte) code;
            }
        }
        for (int code = 0; code < 16; code++) {
            int first = HuffmanBitWriter.OFFSET_BASE[code];
            int last = code == 15 ? 255 : HuffmanBitWriter.OFFSET_BASE[code + 1] - 1;
            for (int xoffset = first; xoffset <= last; xoffset++) {
                OFFSET_CODES[xoffset] = (byte) code;
            }
        }
    }

    private Tokens() {
    }

    static int matchToken(int xlength, int xoffset) {
        return MATCH_TYPE + (xlength << LENGTH_SHIFT) + xoffset;
    }

    /** The match length minus 3 of a match token. */
    static int length(int token) {
        return (token - MATCH_TYPE) >>> LENGTH_SHIFT;
    }

    /** The match offset minus 1 of a match token. */
    static int offset(int token) {
        return token & OFFSET_MASK;
    }

    static int lengthCode(int xlength) {
        return LENGTH_CODES[xlength];
    }

    static int offsetCode(int xoffset) {
        if (xoffset < 256) {
            return OFFSET_CODES[xoffset];
        }
        if (xoffset >>> 7 < 256) {
            return OFFSET_CODES[xoffset >>> 7] + 14;
        }
        return OFFSET_CODES[xoffset >>> 14] + 28;
    }
}
