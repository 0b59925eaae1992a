package dev.layerfold.dedup.store;

import dev.layerfold.dedup.codec.container.ZstdFrameHeader;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a pack as the zstd frames it is, one after another, from their headers and block headers
 * (RFC 8878, section 3.1.1) without decompressing them: a pack holds no table of its own, its frames'
 * boundaries are the table.
 */
final class ZstdFrames {

    private static final int MAGIC = ZstdFrameHeader.MAGIC;
    private static final int MAX_FRAME_HEADER = ZstdFrameHeader.MAX_LENGTH;

    /** One frame: where it starts in the pack, and its bytes if it is no longer than the limit given. */
    record Frame(long offset, long length, byte[] bytesIfSmall) {
    }

    private final InputStream in;
    private final int keepUpTo;
    private long position;

    /** @param keepUpTo frames up to this many bytes are returned with their bytes; longer ones without */
    ZstdFrames(InputStream in, int keepUpTo) {
        this.in = in;
        this.keepUpTo = keepUpTo;
    }

    /** The next frame, or null at the end of the pack. */
    Frame next() throws IOException {
        long offset = position;
        int first = in.read();
        if (first < 0) {
            return null;
        }
        Copy copy = new Copy();
        copy.one(first);
        copy.bytes(3);
        byte[] magic = copy.last(4);
        int found = (magic[0] & 0xff) | (magic[1] & 0xff) << 8 | (magic[2] & 0xff) << 16 | (magic[3] & 0xff) << 24;
        if (found != MAGIC) {
            throw new IOException("not a zstd frame at offset " + offset + " of the pack (magic " + Integer.toHexString(found) + ")");
        }
        int descriptor = copy.bytes(1)[0] & 0xff;
        boolean checksum = (descriptor & 0x04) != 0;
        copy.bytes(ZstdFrameHeader.fieldsLength(descriptor));
        boolean last = false;
        while (!last) {
            ZstdFrameHeader.Block block = ZstdFrameHeader.Block.decode(copy.bytes(ZstdFrameHeader.BLOCK_HEADER), 0);
            last = block.last();
            if (block.type() == ZstdFrameHeader.Block.RESERVED) {
                throw new IOException("reserved zstd block type at offset " + position + " of the pack");
            }
            copy.bytes(block.contentLength());
        }
        if (checksum) {
            copy.bytes(4);
        }
        return new Frame(offset, position - offset, copy.kept());
    }

    /** The bytes of the frame being read, kept while it stays small. */
    private final class Copy {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream(MAX_FRAME_HEADER);
        private boolean small = true;

        void one(int b) {
            position++;
            keep(new byte[] {(byte) b});
        }

        byte[] bytes(int n) throws IOException {
            if (n > keepUpTo) {
                small = false;
                skip(n);
                return new byte[0];
            }
            byte[] read = in.readNBytes(n);
            if (read.length < n) {
                throw new EOFException("the pack ends inside a zstd frame, at offset " + (position + read.length));
            }
            position += n;
            keep(read);
            return read;
        }

        private void skip(long n) throws IOException {
            long left = n;
            while (left > 0) {
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new EOFException("the pack ends inside a zstd frame, at offset " + (position + n - left));
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
            position += n;
        }

        byte[] last(int n) {
            byte[] all = kept.toByteArray();
            byte[] tail = new byte[n];
            System.arraycopy(all, all.length - n, tail, 0, n);
            return tail;
        }

        private void keep(byte[] read) {
            if (small) {
                kept.write(read, 0, read.length);
                if (kept.size() > keepUpTo) {
                    small = false;
                }
            }
        }

        byte[] kept() {
            return small ? kept.toByteArray() : null;
        }
    }
}
