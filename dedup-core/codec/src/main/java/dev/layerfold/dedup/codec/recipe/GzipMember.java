package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;
import java.util.List;

/**
 * One gzip member as found: its header bytes verbatim (RFC 1952, including any optional fields),
 * the encoder that reproduces its deflate stream, how many bytes of the tar stream it holds, and
 * its 8-byte trailer (CRC32, ISIZE) verbatim, and the verified {@link RestartPoint}s that let a restore
 * encode it in segments (none, or the member's start and at least one more).
 */
public record GzipMember(byte[] header, EncoderSpec encoder, long uncompressedSize, byte[] trailer, List<RestartPoint> restartPoints) {

    public static final int TRAILER_SIZE = 8;
    /** The most input between two restart points: a restore buffers one segment's input and output per thread. */
    public static final long MAX_SEGMENT_INPUT = 64L << 20;

    public GzipMember(byte[] header, EncoderSpec encoder, long uncompressedSize, byte[] trailer) {
        this(header, encoder, uncompressedSize, trailer, List.of());
    }

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
        restartPoints = List.copyOf(restartPoints);
        checkRestartPoints(restartPoints, uncompressedSize);
    }

    /** This member with {@code points} as its restart points. */
    public GzipMember withRestartPoints(List<RestartPoint> points) {
        return new GzipMember(header, encoder, uncompressedSize, trailer, points);
    }

    private static void checkRestartPoints(List<RestartPoint> points, long uncompressedSize) {
        if (points.isEmpty()) {
            return;
        }
        if (points.size() < 2 || points.getFirst().inputOffset() != 0 || points.getFirst().outputBitOffset() != 0) {
            throw new IllegalArgumentException("restart points start at the member's start and name at least one more");
        }
        for (int i = 1; i < points.size(); i++) {
            RestartPoint previous = points.get(i - 1);
            RestartPoint point = points.get(i);
            if (point.inputOffset() <= previous.inputOffset() || point.outputByteOffset() <= previous.outputByteOffset()
                    || point.inputOffset() >= uncompressedSize) {
                throw new IllegalArgumentException("restart point " + i + " does not lie after point " + (i - 1) + " inside the member");
            }
            if (point.inputOffset() - previous.inputOffset() > MAX_SEGMENT_INPUT) {
                throw new IllegalArgumentException("restart points " + (i - 1) + " and " + i + " are more than " + MAX_SEGMENT_INPUT + " bytes apart");
            }
        }
        if (uncompressedSize - points.getLast().inputOffset() > MAX_SEGMENT_INPUT) {
            throw new IllegalArgumentException("the last restart point is more than " + MAX_SEGMENT_INPUT + " bytes before the member's end");
        }
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
                && uncompressedSize == m.uncompressedSize && Arrays.equals(trailer, m.trailer) && restartPoints.equals(m.restartPoints);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(header) * 31 + encoder.hashCode();
    }
}
