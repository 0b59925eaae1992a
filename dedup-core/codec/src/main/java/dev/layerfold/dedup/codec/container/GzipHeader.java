package dev.layerfold.dedup.codec.container;

import dev.layerfold.dedup.codec.io.LayerFormatException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.CRC32;

/**
 * A gzip member header (RFC 1952) exactly as found, with the fields that hint at its producer.
 *
 * @param bytes the header verbatim, optional fields (FEXTRA, FNAME, FCOMMENT, FHCRC) included
 * @param xfl   extra flags: 2 = slowest/best compression, 4 = fastest
 * @param os    the operating system byte: 255 from Go and Python, 3 (Unix) from gzip and pigz
 */
public record GzipHeader(byte[] bytes, int flags, long mtime, int xfl, int os) {

    /** OS byte 0 (FAT): Java's GZIPOutputStream before JDK 16. */
    public static final int OS_FAT = 0;
    /** OS byte 3 (Unix): pigz and GNU gzip. */
    public static final int OS_UNIX = 3;
    /** OS byte 255 (unknown): Go's compress/gzip (every release), Python's gzip, Java's since JDK 16. */
    public static final int OS_UNKNOWN = 255;

    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED = 0xe0;
    private static final int MAX_STRING = 64 * 1024;

    public GzipHeader {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Reads one member header from the blob's current position. */
    public static GzipHeader read(BlobInput in) throws IOException {
        long start = in.offset();
        ByteArrayOutputStream header = new ByteArrayOutputStream(16);
        for (int i = 0; i < 10; i++) {
            header.write(next(in, start));
        }
        byte[] fixed = header.toByteArray();
        if ((fixed[0] & 0xff) != 0x1f || (fixed[1] & 0xff) != 0x8b) {
            throw new LayerFormatException("no gzip member at offset " + start + " (magic bytes missing)");
        }
        if (fixed[2] != 8) {
            throw new LayerFormatException("gzip member at offset " + start + " uses compression method " + fixed[2] + ", only 8 (deflate) exists");
        }
        int flags = fixed[3] & 0xff;
        if ((flags & RESERVED) != 0) {
            throw new LayerFormatException("gzip member at offset " + start + " sets reserved flag bits 0x" + Integer.toHexString(flags & RESERVED));
        }
        if ((flags & FEXTRA) != 0) {
            int lo = next(in, start);
            int hi = next(in, start);
            header.write(lo);
            header.write(hi);
            for (int i = 0, n = lo | hi << 8; i < n; i++) {
                header.write(next(in, start));
            }
        }
        if ((flags & FNAME) != 0) {
            copyZeroTerminated(in, header, start, "file name");
        }
        if ((flags & FCOMMENT) != 0) {
            copyZeroTerminated(in, header, start, "comment");
        }
        if ((flags & FHCRC) != 0) {
            CRC32 crc = new CRC32();
            crc.update(header.toByteArray());
            int lo = next(in, start);
            int hi = next(in, start);
            if ((lo | hi << 8) != (int) (crc.getValue() & 0xffff)) {
                throw new LayerFormatException("gzip member at offset " + start + " has a bad header CRC");
            }
            header.write(lo);
            header.write(hi);
        }
        long mtime = (fixed[4] & 0xffL) | (fixed[5] & 0xffL) << 8 | (fixed[6] & 0xffL) << 16 | (fixed[7] & 0xffL) << 24;
        return new GzipHeader(header.toByteArray(), flags, mtime, fixed[8] & 0xff, fixed[9] & 0xff);
    }

    private static void copyZeroTerminated(BlobInput in, ByteArrayOutputStream header, long start, String what) throws IOException {
        for (int i = 0; ; i++) {
            if (i > MAX_STRING) {
                throw new LayerFormatException("gzip member at offset " + start + " has a " + what + " longer than " + MAX_STRING + " bytes");
            }
            int b = next(in, start);
            header.write(b);
            if (b == 0) {
                return;
            }
        }
    }

    private static int next(BlobInput in, long start) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new LayerFormatException("gzip member at offset " + start + " is truncated inside its header");
        }
        return b;
    }
}
