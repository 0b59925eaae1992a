package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.container.BlobInput;
import dev.layerfold.dedup.codec.container.ZstdDecoder;
import dev.layerfold.dedup.codec.container.ZstdFrameHeader;
import dev.layerfold.dedup.codec.identify.Identification;
import dev.layerfold.dedup.codec.io.LayerFormatException;
import dev.layerfold.dedup.codec.recipe.Recipe;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.tar.TarSplitter;
import dev.layerfold.dedup.codec.zstd.ZstdIdentifier;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Walks a zstd layer frame by frame (RFC 8878): each frame's header and block headers are read and
 * recorded as they are, its bytes decoded into the tar stream and shown to the identifier (with where
 * each block's content ends, which the decoder has given out whole once the block is in); skippable
 * frames are kept verbatim. Stops where no frame starts; what follows is the caller's.
 */
final class ZstdFrameSplitter {

    private final BlobInput in;
    private final TarSplitter tar;
    private final ZstdIdentifier identifier;

    ZstdFrameSplitter(BlobInput in, TarSplitter tar, ZstdIdentifier identifier) {
        this.in = in;
        this.tar = tar;
        this.identifier = identifier;
    }

    /** Splits the frames from here on; adds each to {@code frames}, and each compressed one's identification to {@code identifications}. */
    void split(List<ZstdFrame> frames, List<Identification> identifications) throws IOException {
        try (ZstdDecoder decoder = new ZstdDecoder()) {
            while (true) {
                int magic = magicAhead();
                if (magic == ZstdFrameHeader.MAGIC) {
                    frames.add(compressedFrame(decoder, identifications));
                } else if ((magic & ZstdFrameHeader.SKIPPABLE_MASK) == ZstdFrameHeader.SKIPPABLE_MAGIC) {
                    frames.add(skippableFrame());
                } else {
                    return;
                }
            }
        }
    }

    private int magicAhead() throws IOException {
        if (in.require(4) < 4) {
            return 0;
        }
        return littleEndian(in.buffer(), in.position());
    }

    private ZstdFrame compressedFrame(ZstdDecoder decoder, List<Identification> identifications) throws IOException {
        ZstdFrameHeader header = ZstdFrameHeader.read(in);
        ZstdIdentifier.Session session = identifier.start(header);
        long[] contentSize = {0};
        ZstdDecoder.Listener content = (data, offset, length) -> {
            contentSize[0] += length;
            session.content(data, offset, length);
            tar.write(data, offset, length);
        };
        byte[] headerBytes = header.bytes();
        session.compressed(headerBytes, 0, headerBytes.length);
        decoder.write(headerBytes, 0, headerBytes.length, content);
        ByteArrayOutputStream blockHeaders = new ByteArrayOutputStream();
        boolean last = false;
        while (!last) {
            long offset = in.offset();
            if (in.require(ZstdFrameHeader.BLOCK_HEADER) < ZstdFrameHeader.BLOCK_HEADER) {
                throw new LayerFormatException("the layer ends inside a zstd frame, at offset " + offset);
            }
            ZstdFrameHeader.Block block = ZstdFrameHeader.Block.decode(in.buffer(), in.position());
            if (block.type() == ZstdFrameHeader.Block.RESERVED || block.size() > ZstdFrameHeader.MAX_BLOCK) {
                throw new LayerFormatException("zstd block at offset " + offset + " is damaged (type " + block.type() + ", size " + block.size() + ")");
            }
            blockHeaders.write(in.buffer(), in.position(), ZstdFrameHeader.BLOCK_HEADER);
            session.blockStarted(block.type());
            pass(ZstdFrameHeader.BLOCK_HEADER + block.contentLength(), decoder, session, content);
            last = block.last();
            if (!last) {
                session.blockEnded(contentSize[0]);
            }
        }
        byte[] checksum = new byte[header.checksum() ? 4 : 0];
        if (header.checksum()) {
            if (in.require(4) < 4) {
                throw new LayerFormatException("the layer ends inside a zstd frame's checksum, at offset " + in.offset());
            }
            System.arraycopy(in.buffer(), in.position(), checksum, 0, 4);
            pass(4, decoder, session, content);
        }
        decoder.endFrame(in.offset(), content);
        byte[] layout = blockHeaders.toByteArray();
        boolean emptyLastBlock = contentSize[0] > 0 && ZstdFrameHeader.Block.decode(layout, layout.length - ZstdFrameHeader.BLOCK_HEADER).size() == 0;
        Identification identification = session.finish(emptyLastBlock);
        identifications.add(identification);
        return new ZstdFrame.Compressed(headerBytes, identification.encoder(), contentSize[0], layout, checksum, session.flushPoints());
    }

    /** Passes {@code length} bytes of the frame to the decoder and the identifier. */
    private void pass(long length, ZstdDecoder decoder, ZstdIdentifier.Session session, ZstdDecoder.Listener content) throws IOException {
        while (length > 0) {
            if (in.fill() == 0) {
                throw new LayerFormatException("the layer ends inside a zstd block, at offset " + in.offset());
            }
            int n = (int) Math.min(length, in.available());
            session.compressed(in.buffer(), in.position(), n);
            decoder.write(in.buffer(), in.position(), n, content);
            in.skip(n);
            length -= n;
        }
    }

    private ZstdFrame skippableFrame() throws IOException {
        long offset = in.offset();
        if (in.require(8) < 8) {
            throw new LayerFormatException("the layer ends inside a skippable frame's header, at offset " + offset);
        }
        long size = littleEndian(in.buffer(), in.position() + 4) & 0xffffffffL;
        if (size > Recipe.MAX_SKIPPABLE_FRAME) {
            throw new LayerFormatException("skippable frame at offset " + offset + " holds " + size + " bytes, more than the "
                    + Recipe.MAX_SKIPPABLE_FRAME + " a recipe keeps");
        }
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        long left = 8 + size;
        while (left > 0) {
            if (in.fill() == 0) {
                throw new LayerFormatException("the layer ends inside a skippable frame, at offset " + in.offset());
            }
            int n = (int) Math.min(left, in.available());
            frame.write(in.buffer(), in.position(), n);
            in.skip(n);
            left -= n;
        }
        return new ZstdFrame.Skippable(frame.toByteArray());
    }

    private static int littleEndian(byte[] data, int offset) {
        return (data[offset] & 0xff) | (data[offset + 1] & 0xff) << 8 | (data[offset + 2] & 0xff) << 16 | (data[offset + 3] & 0xff) << 24;
    }
}
