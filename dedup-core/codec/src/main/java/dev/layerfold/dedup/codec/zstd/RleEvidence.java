package dev.layerfold.dedup.codec.zstd;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.zstd.klauspost.KlauspostSettings;

/**
 * What a frame's blocks tell of klauspost/compress's RLE block, which 1.17.8 added: 1.17.7 wrote a
 * block of one repeated byte as a compressed (or raw) block, and otherwise the same bytes as 1.18.0, so that
 * no race over the frame's start tells the two apart. A frame with an RLE block is 1.17.8's or later.
 * One without is written alike by both generations (they differ only where 1.18.0's writes an RLE
 * block); if it holds another block of one repeated byte over 3 bytes, 1.18.0's did not write
 * it at SpeedBetterCompression or SpeedBestCompression, which make every such block an RLE block.
 * Below, 1.18.0 makes such a block an RLE block only where it found it as one sequence at offset 1,
 * which the content does not show (its own layers of system files hold compressed blocks of zeros
 * there), but always where it is the frame's first block, over 15 bytes
 * ({@code KlauspostZstdEncoderTest.aFrameOfOneByteStartsWithAnRleBlockFrom1178On}), as
 * zstd:chunked's frame of a zero chunk or of a file of one byte is. Each other block's content
 * is compared with its first byte up to the first that differs, usually the second.
 */
final class RleEvidence {

    private boolean rleBlock;
    private boolean otherOneByteBlock;
    private boolean otherOneByteFirstBlock;
    private boolean firstBlock = true;
    /** The current block is not an RLE block and all of its content so far is {@link #first}. */
    private boolean oneByteSoFar;
    private int first = -1;
    private long length;

    /** A block of this type starts; its content follows through {@link #content}. */
    void blockStarted(int type) {
        rleBlock |= type == ZstdFrameHeader.Block.RLE;
        oneByteSoFar = type != ZstdFrameHeader.Block.RLE;
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
        otherOneByteBlock |= oneByteSoFar && length > 3;
        otherOneByteFirstBlock |= firstBlock && oneByteSoFar && length > 15;
        oneByteSoFar = false;
        firstBlock = false;
    }

    /** Whether klauspost's Writer at this EncoderLevel wrote the frame without the RLE blocks that 1.17.8 on would have written: 1.17.7's generation. */
    boolean writtenWithoutRleBlocks(int level) {
        return !rleBlock && (level >= KlauspostSettings.SPEED_BETTER ? otherOneByteBlock : otherOneByteFirstBlock);
    }
}
