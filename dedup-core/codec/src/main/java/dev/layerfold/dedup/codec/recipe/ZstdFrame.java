package dev.layerfold.dedup.codec.recipe;

import java.util.Arrays;
import java.util.List;

/**
 * One frame of a zstd layer as found, in blob order: a compressed frame with the encoder that
 * reproduces it, or a skippable frame (zstd:chunked's table of contents, for one) kept verbatim.
 */
public sealed interface ZstdFrame {

    /** How many bytes of the tar stream the frame holds. */
    long contentSize();

    /**
     * A zstd frame (RFC 8878, section 3.1.1). The encoder writes the whole frame; header, block
     * headers and checksum are recorded verbatim besides, so that the layout the producer chose is
     * known without the original (to describe the layer, and for encoders ported later).
     *
     * @param header       the frame header verbatim, magic number included
     * @param blockHeaders every block's 3-byte header, in order
     * @param checksum     the 4-byte content checksum, or none if the header says there is none
     * @param flushPoints  content offsets, ascending, where the producer flushed and so ended a block
     *                     short of its encoder's block size (klauspost's Flush or ReadFrom); mostly none
     * @param restartPoints verified restart points, the frame's start first, or none (the frame restores in one piece)
     */
    record Compressed(byte[] header, EncoderSpec encoder, long contentSize, byte[] blockHeaders, byte[] checksum, long[] flushPoints,
                      List<ZstdRestartPoint> restartPoints) implements ZstdFrame {

        /** A frame without restart points. */
        public Compressed(byte[] header, EncoderSpec encoder, long contentSize, byte[] blockHeaders, byte[] checksum, long[] flushPoints) {
            this(header, encoder, contentSize, blockHeaders, checksum, flushPoints, List.of());
        }

        public Compressed {
            for (int i = 0; i < restartPoints.size(); i++) {
                long at = restartPoints.get(i).inputOffset();
                if (i == 0 ? at != 0 : at <= restartPoints.get(i - 1).inputOffset() || at >= contentSize
                        || restartPoints.get(i).outputOffset() <= restartPoints.get(i - 1).outputOffset()) {
                    throw new IllegalArgumentException("restart point " + i + " at content offset " + at
                            + " is not the frame's start or after the previous point and within the frame");
                }
            }
            if (!restartPoints.isEmpty() && flushPoints.length > 0) {
                throw new IllegalArgumentException("a frame with flush points has no restart points");
            }
            restartPoints = List.copyOf(restartPoints);
            if (header.length < 6 || contentSize < 0 || blockHeaders.length == 0 || blockHeaders.length % 3 != 0
                    || (checksum.length != 0 && checksum.length != 4)) {
                throw new IllegalArgumentException("not a zstd frame's layout: header " + header.length + " bytes, block headers "
                        + blockHeaders.length + " bytes, checksum " + checksum.length + " bytes");
            }
            for (int i = 0; i < flushPoints.length; i++) {
                if (flushPoints[i] <= (i == 0 ? 0 : flushPoints[i - 1]) || flushPoints[i] > contentSize) {
                    throw new IllegalArgumentException("flush point " + flushPoints[i] + " is not after the previous one and within the frame's "
                            + contentSize + " bytes");
                }
            }
            header = header.clone();
            blockHeaders = blockHeaders.clone();
            checksum = checksum.clone();
            flushPoints = flushPoints.clone();
        }

        @Override
        public byte[] header() {
            return header.clone();
        }

        @Override
        public byte[] blockHeaders() {
            return blockHeaders.clone();
        }

        @Override
        public byte[] checksum() {
            return checksum.clone();
        }

        @Override
        public long[] flushPoints() {
            return flushPoints.clone();
        }

        /** The same frame with {@code points} as its restart points. */
        public Compressed withRestartPoints(List<ZstdRestartPoint> points) {
            return new Compressed(header, encoder, contentSize, blockHeaders, checksum, flushPoints, points);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Compressed c && Arrays.equals(header, c.header) && encoder.equals(c.encoder) && contentSize == c.contentSize
                    && Arrays.equals(blockHeaders, c.blockHeaders) && Arrays.equals(checksum, c.checksum) && Arrays.equals(flushPoints, c.flushPoints)
                    && restartPoints.equals(c.restartPoints);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(header) * 31 + encoder.hashCode();
        }
    }

    /** A skippable frame (magic 0x184D2A5?), verbatim: it holds no tar bytes. */
    record Skippable(byte[] frame) implements ZstdFrame {

        public Skippable {
            frame = frame.clone();
        }

        @Override
        public byte[] frame() {
            return frame.clone();
        }

        @Override
        public long contentSize() {
            return 0;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Skippable s && Arrays.equals(frame, s.frame);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(frame);
        }
    }
}
