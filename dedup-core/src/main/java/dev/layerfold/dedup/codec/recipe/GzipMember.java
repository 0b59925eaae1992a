package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;

/**
 * One gzip member as found: its header bytes verbatim (RFC 1952, including any optional fields),
 * the encoder that reproduces its deflate stream, how many bytes of the tar stream it holds, and
 * its 8-byte trailer (CRC32, ISIZE) verbatim.
 */
public record GzipMember(byte[] header, EncoderSpec encoder, long uncompressedSize, byte[] trailer) {

    public static final int TRAILER_SIZE = 8;

    public GzipMember {
        if (header.length < 10) {
            throw new IllegalArgumentException("a gzip header has at least 10 bytes, got " + header.length);
        }
        if (trailer.length != TRAILER_SIZE) {
            throw new IllegalArgumentException("a gzip trailer has 8 bytes, got " + trailer.length);
        }
        if (uncompressedSize < 0) {
            throw new IllegalArgumentException("uncompressed size must not be negative");
        }
        header = header.clone();
        trailer = trailer.clone();
    }

    @Override
    public byte[] header() {
        return header.clone();
    }

    @Override
    public byte[] trailer() {
        return trailer.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GzipMember m && Arrays.equals(header, m.header) && encoder.equals(m.encoder)
                && uncompressedSize == m.uncompressedSize && Arrays.equals(trailer, m.trailer);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(header) * 31 + encoder.hashCode();
    }
}
