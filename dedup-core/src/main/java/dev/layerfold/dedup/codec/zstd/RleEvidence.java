package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;

/**
 * What a frame's blocks tell of klauspost/compress's RLE block, which 1.17.8 added: 1.17.7 wrote a
 * block of one repeated byte as a compressed block, and otherwise the same bytes as 1.18.0, so that
 * no race over the frame's start tells the two apart. A frame with an RLE block is 1.17.8's or later.
 * One without is written alike by both generations (they differ only where 1.18.0's writes an RLE
 * block), and if it holds a compressed block of one repeated byte over 3 bytes, 1.18.0's cannot
 * have written it at SpeedBetterCompression or SpeedBestCompression, which make every such block an
 * RLE block ({@link ZstdEncoders#forRleEvidence} names 1.17.7's then). Each compressed block's
 * content is compared with its first byte up to the first that differs, usually the second.
 */
final class RleEvidence {

    private boolean rleBlock;
    private boolean compressedOneByteBlock;
    /** The current block is compressed and all of its content so far is {@link #first}. */
    private boolean oneByteSoFar;
    private int first = -1;
    private long length;

    /** A block of this type starts; its content follows through {@link #content}. */
    void blockStarted(int type) {
        rleBlock |= type == ZstdFrameHeader.Block.RLE;
        oneByteSoFar = type == ZstdFrameHeader.Block.COMPRESSED;
        first = -1;
        length = 0;
    }

    void content(byte[] data, int offset, int length) {
        if (!oneByteSoFar || length == 0) {
            return;
        }
        if (first < 0) {
            first = data[offset] & 0xff;
        }
        for (int i = offset; i < offset + length; i++) {
            if ((data[i] & 0xff) != first) {
                oneByteSoFar = false;
                return;
            }
        }
        this.length += length;
    }

    /** The current block ended: all of its content was given. */
    void blockEnded() {
        compressedOneByteBlock |= oneByteSoFar && length > 3;
        oneByteSoFar = false;
    }

    /** Whether the frame was written without RLE blocks where 1.17.8 on would have written one: a compressed block of one repeated byte and no RLE block. */
    boolean writtenWithoutRleBlocks() {
        return compressedOneByteBlock && !rleBlock;
    }
}
