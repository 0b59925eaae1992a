package dev.layerfold.dedup.codec.container;

import dev.layerfold.dedup.codec.io.LayerFormatException;

import java.io.IOException;

/**
 * A zstd frame header (RFC 8878, section 3.1.1.1) as written, and what it says about its producer:
 * whether the content size was known to it, its window, whether it adds a checksum, a dictionary.
 *
 * @param bytes        the header verbatim, from the magic number to the last content size byte
 * @param contentSize  the frame's decompressed size, or -1 where the header does not record it
 * @param windowLog    log2 of the window size from the window descriptor (exact only without a
 *                     mantissa; see {@link #windowMantissa}), or -1 in a single-segment frame, whose
 *                     window is its content
 */
public record ZstdFrameHeader(byte[] bytes, boolean singleSegment, boolean checksum, long dictionaryId, long contentSize, int windowLog,
                              int windowMantissa) {

    public static final int MAGIC = 0xFD2FB528;
    /** Skippable frames have magic numbers 0x184D2A50 to 0x184D2A5F. */
    public static final int SKIPPABLE_MASK = 0xFFFFFFF0;
    public static final int SKIPPABLE_MAGIC = 0x184D2A50;
    public static final int MAX_LENGTH = 18;
    public static final int BLOCK_HEADER = 3;
    /** Block_Maximum_Size: no block holds more than 128 KiB of content. */
    public static final int MAX_BLOCK = 128 * 1024;

    public ZstdFrameHeader {
        bytes = bytes.clone();
    }

    /** How many header bytes follow the frame header descriptor: window descriptor, dictionary id, content size. */
    public static int fieldsLength(int descriptor) {
        boolean singleSegment = (descriptor & 0x20) != 0;
        return (singleSegment ? 0 : 1) + DICTIONARY_ID_BYTES[descriptor & 0x03] + contentSizeBytes(descriptor);
    }

    private static final int[] DICTIONARY_ID_BYTES = {0, 1, 2, 4};

    private static int contentSizeBytes(int descriptor) {
        int flag = descriptor >>> 6;
        return flag == 0 ? ((descriptor & 0x20) != 0 ? 1 : 0) : 1 << flag;
    }

    /** Reads a frame header, the magic number included, from {@code in} (which must be at a frame). */
    public static ZstdFrameHeader read(BlobInput in) throws IOException {
        long offset = in.offset();
        if (in.require(5) < 5) {
            throw new LayerFormatException("the layer ends inside a zstd frame header at offset " + offset);
        }
        int descriptor = in.buffer()[in.position() + 4] & 0xff;
        if ((descriptor & 0x08) != 0) {
            throw new LayerFormatException("zstd frame at offset " + offset + " sets the reserved bit of its header descriptor");
        }
        int length = 5 + fieldsLength(descriptor);
        if (in.require(length) < length) {
            throw new LayerFormatException("the layer ends inside a zstd frame header at offset " + offset);
        }
        byte[] bytes = new byte[length];
        System.arraycopy(in.buffer(), in.position(), bytes, 0, length);
        in.skip(length);
        return parse(bytes);
    }

    /** Parses a header read before ({@link #bytes}). */
    public static ZstdFrameHeader parse(byte[] bytes) {
        int descriptor = bytes[4] & 0xff;
        boolean singleSegment = (descriptor & 0x20) != 0;
        int at = 5;
        int windowLog = -1;
        int mantissa = 0;
        if (!singleSegment) {
            windowLog = 10 + ((bytes[at] & 0xff) >>> 3);
            mantissa = bytes[at] & 0x07;
            at++;
        }
        int dictionaryBytes = DICTIONARY_ID_BYTES[descriptor & 0x03];
        long dictionaryId = littleEndian(bytes, at, dictionaryBytes);
        at += dictionaryBytes;
        int sizeBytes = contentSizeBytes(descriptor);
        long contentSize = sizeBytes == 0 ? -1 : littleEndian(bytes, at, sizeBytes) + (sizeBytes == 2 ? 256 : 0);
        return new ZstdFrameHeader(bytes, singleSegment, (descriptor & 0x04) != 0, dictionaryId, contentSize, windowLog, mantissa);
    }

    /** A block header's fields (RFC 8878, section 3.1.1.2), from its three bytes little-endian. */
    public record Block(boolean last, int type, int size) {

        public static final int RAW = 0;
        public static final int RLE = 1;
        public static final int COMPRESSED = 2;
        public static final int RESERVED = 3;

        public static Block decode(byte[] data, int offset) {
            int value = (data[offset] & 0xff) | (data[offset + 1] & 0xff) << 8 | (data[offset + 2] & 0xff) << 16;
            return new Block((value & 1) != 0, (value >>> 1) & 0x03, value >>> 3);
        }

        /** How many bytes of the block follow its header. */
        public int contentLength() {
            return type == RLE ? 1 : size;
        }
    }

    private static long littleEndian(byte[] bytes, int offset, int length) {
        long value = 0;
        for (int i = length - 1; i >= 0; i--) {
            value = value << 8 | (bytes[offset + i] & 0xff);
        }
        return value;
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The header's length in bytes. */
    public int length() {
        return bytes.length;
    }
}
