package dev.layerfold.dedup.codec.tar;

import java.nio.charset.StandardCharsets;

/**
 * Reads the few fields of a 512-byte tar header block the skeleton needs: checksum, type flag and
 * size (octal or GNU base-256), the GNU sparse "is extended" flag. Covers v7, ustar, GNU and PAX
 * headers; never interprets names, so non-UTF-8 names pass through untouched.
 */
final class TarHeader {

    static final int BLOCK = 512;
    private static final int SIZE_OFFSET = 124;
    private static final int SIZE_LENGTH = 12;
    private static final int CHECKSUM_OFFSET = 148;
    private static final int CHECKSUM_LENGTH = 8;
    private static final int TYPEFLAG_OFFSET = 156;
    private static final int GNU_SPARSE_IS_EXTENDED_OFFSET = 482;
    static final int GNU_SPARSE_EXT_IS_EXTENDED_OFFSET = 504;

    private TarHeader() {
    }

    static boolean isZeroBlock(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** True if the stored checksum matches the block's unsigned sum (or, as some old tars wrote, its signed sum). */
    static boolean checksumMatches(byte[] block) {
        long stored = parseNumber(block, CHECKSUM_OFFSET, CHECKSUM_LENGTH);
        if (stored < 0) {
            return false;
        }
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            int b = i >= CHECKSUM_OFFSET && i < CHECKSUM_OFFSET + CHECKSUM_LENGTH ? ' ' : block[i];
            unsigned += b & 0xff;
            signed += b;
        }
        return stored == unsigned || stored == signed;
    }

    static byte typeflag(byte[] block) {
        return block[TYPEFLAG_OFFSET];
    }

    /** The size field, or -1 if it is not a number. */
    static long size(byte[] block) {
        return parseNumber(block, SIZE_OFFSET, SIZE_LENGTH);
    }

    static boolean gnuSparseIsExtended(byte[] block) {
        return block[GNU_SPARSE_IS_EXTENDED_OFFSET] != 0;
    }

    /**
     * Parses a numeric field: octal digits with optional leading spaces and a NUL or space
     * terminator, or GNU base-256 (high bit of the first byte set). Returns -1 for anything else,
     * including negative base-256 values. An all-blank field is 0, as tar readers treat it.
     */
    static long parseNumber(byte[] block, int offset, int length) {
        int first = block[offset] & 0xff;
        if ((first & 0x80) != 0) {
            if ((first & 0x40) != 0) {
                return -1;
            }
            long value = first & 0x3f;
            for (int i = 1; i < length; i++) {
                if (value > (Long.MAX_VALUE >> 8)) {
                    return -1;
                }
                value = (value << 8) | (block[offset + i] & 0xff);
            }
            return value;
        }
        int i = offset;
        int end = offset + length;
        while (i < end && block[i] == ' ') {
            i++;
        }
        long value = 0;
        for (; i < end && block[i] >= '0' && block[i] <= '7'; i++) {
            if (value > (Long.MAX_VALUE >> 3)) {
                return -1;
            }
            value = (value << 3) | (block[i] - '0');
        }
        return allBlank(block, i, end) ? value : -1;
    }

    private static boolean allBlank(byte[] block, int from, int end) {
        for (int i = from; i < end; i++) {
            if (block[i] != 0 && block[i] != ' ') {
                return false;
            }
        }
        return true;
    }

    /** A printable form of a type flag for messages. */
    static String describeType(byte typeflag) {
        return typeflag >= 0x20 && typeflag < 0x7f ? "'" + (char) typeflag + "'" : "0x" + Integer.toHexString(typeflag & 0xff);
    }

    /** The entry name for messages (ISO-8859-1, so any bytes are shown). */
    static String name(byte[] block) {
        int end = 0;
        while (end < 100 && block[end] != 0) {
            end++;
        }
        return new String(block, 0, end, StandardCharsets.ISO_8859_1);
    }
}
