package dev.layerfold.restore;

import dev.layerfold.storage.blob.ContentBusyException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One rebuild of a layer, shared by every request for it that arrives while it runs. The encoder
 * writes the layer to a local spool file and never waits for a client; each request reads the file
 * at its own pace behind the encoder (a slow client holds disk, not memory or an encoder thread).
 *
 * <p>No client ever receives a whole response that is wrong: a reader holds back the last byte of
 * its range until the rebuilt layer matched its digest ({@link #succeed()}); if the rebuild fails
 * instead, the reader throws, the response ends short of its Content-Length, and the client retries.
 * The file is removed when the rebuild is over and the last reader closed.
 */
final class SharedRebuild {

    private final Path file;
    private final FileChannel channel;
    /** The layer offset of the spool file's first byte: 0, or a restart point's for a rebuild that starts there. */
    private final long base;
    private long written;
    private boolean finished;
    private IOException failure;
    private int readers;
    private boolean released;
    /** No reader was left while the encoder ran, so it stopped: a new request starts a new rebuild. */
    private boolean abandoned;

    SharedRebuild(Path directory) throws IOException {
        this(directory, 0);
    }

    /** A rebuild of the layer from byte {@code base} on. */
    SharedRebuild(Path directory, long base) throws IOException {
        this.base = base;
        if (!Files.isDirectory(directory)) {
            // Not on every restore: createDirectories throws and catches an exception when the directory exists.
            Files.createDirectories(directory);
        }
        this.file = Files.createTempFile(directory, "restore-", ".layer");
        this.channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Where the encoder writes; bytes become visible to readers as each buffer is written out. */
    OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] data, int offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(data, offset, length);
                long position;
                synchronized (SharedRebuild.this) {
                    if (readers == 0) {
                        abandoned = true;
                        throw new IOException("every client of this restore went away; rebuild abandoned");
                    }
                    position = written;
                }
                while (buffer.hasRemaining()) {
                    position += channel.write(buffer, position);
                }
                synchronized (SharedRebuild.this) {
                    written = position;
                    SharedRebuild.this.notifyAll();
                }
            }
        };
    }

    /** Drops a rebuild that never started and has no reader (another request's started first). */
    synchronized void discard() {
        finished = true;
        releaseIfDone();
    }

    /** Every byte was written and the layer's digest matched. */
    synchronized void succeed() {
        finished = true;
        notifyAll();
        releaseIfDone();
    }

    /** The rebuild failed or proved wrong: readers throw {@code cause} instead of ending. */
    synchronized void fail(IOException cause) {
        finished = true;
        failure = cause;
        notifyAll();
        releaseIfDone();
    }

    /**
     * A new reader of bytes {@code offset} to {@code offset + length - 1} ({@code length < 0}: to the
     * end of a layer of {@code size} bytes), served from the spool file even once the rebuild is done;
     * null if it failed, was abandoned or its file is gone (start another).
     */
    synchronized InputStream reader(long offset, long length, long size) {
        if (released || abandoned || failure != null || offset < base) {
            return null;
        }
        readers++;
        long end = length < 0 ? size : Math.min(size, offset + length);
        return new Reader(offset - base, end - base);
    }

    private synchronized void readerClosed() {
        readers--;
        releaseIfDone();
    }

    private void releaseIfDone() {
        if (finished && readers == 0 && !released) {
            released = true;
            try {
                channel.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // A leftover spool file is removed with the scratch directory at the next start.
            }
        }
    }

    /**
     * How far a reader at {@code position} may read: blocks until the encoder wrote past it. The last
     * byte of the range waits for the proof; a failure throws.
     */
    private synchronized long readableEnd(long position, long end) throws IOException {
        try {
            while (true) {
                if (failure instanceof ContentBusyException busy) {
                    // It never started: the readers that joined it are refused as its first request was (429).
                    throw new ContentBusyException(busy.getMessage(), busy.retryAfter());
                }
                if (failure != null) {
                    throw new IOException("the layer could not be rebuilt: " + failure.getMessage(), failure);
                }
                if (finished) {
                    return end;
                }
                long limit = Math.min(written, end - 1);
                if (limit > position) {
                    return limit;
                }
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the rebuild");
        }
    }

    private final class Reader extends InputStream {
        private long position;
        private final long end;
        private boolean closed;

        Reader(long offset, long end) {
            this.position = offset;
            this.end = end;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position >= end) {
                return -1;
            }
            long available = readableEnd(position, end);
            int n = channel.read(ByteBuffer.wrap(buffer, offset, (int) Math.min(length, available - position)), position);
            if (n <= 0) {
                throw new IOException("the restore spool ended early at " + position);
            }
            position += n;
            return n;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                readerClosed();
            }
        }
    }
}
