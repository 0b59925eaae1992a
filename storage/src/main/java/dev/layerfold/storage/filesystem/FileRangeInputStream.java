package dev.layerfold.storage.filesystem;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A byte range of an open file, read with positional reads so that nothing but the caller's buffer
 * is held in memory. Owns the channel and closes it.
 */
public final class FileRangeInputStream extends InputStream {

    private final FileChannel channel;
    private final long end;
    private final byte[] single = new byte[1];
    private long position;

    /** Reads {@code [offset, end)} of the channel; {@code end} is clamped by the caller to the file size. */
    public FileRangeInputStream(FileChannel channel, long offset, long end) {
        this.channel = channel;
        this.position = offset;
        this.end = Math.max(offset, end);
    }

    @Override
    public int read() throws IOException {
        return read(single, 0, 1) < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buffer.length);
        if (len == 0) {
            return 0;
        }
        long remaining = end - position;
        if (remaining <= 0) {
            return -1;
        }
        int read = channel.read(ByteBuffer.wrap(buffer, off, (int) Math.min(len, remaining)), position);
        if (read < 0) {
            return -1; // the file shrank under us; report end of data rather than block
        }
        position += read;
        return read;
    }

    @Override
    public long skip(long n) {
        long skipped = Math.max(0, Math.min(n, end - position));
        position += skipped;
        return skipped;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, end - position);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
