package dev.layerfold.restore;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Carries a rebuilt layer from the thread that encodes it to the thread that sends it, in chunks,
 * with bounded memory, and makes sure a client never receives a whole response that is wrong: the
 * reader holds back the last chunk of what it serves until the writer {@linkplain #succeed() says}
 * the rebuilt bytes matched the layer's digest. If the writer {@linkplain #fail fails} instead, the
 * reader throws, the response ends short of its Content-Length, and the client retries.
 */
final class RestorePipe {

    static final int CHUNK = 256 * 1024;
    private static final int CHUNKS_IN_FLIGHT = 8;
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT);
    private volatile boolean readerGone;
    private volatile IOException failure;

    /** The writer's side; {@link #succeed()} or {@link #fail} must follow the last write. */
    OutputStream output() {
        return new OutputStream() {
            private byte[] chunk = new byte[CHUNK];
            private int filled;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] data, int offset, int length) throws IOException {
                while (length > 0) {
                    int n = Math.min(length, CHUNK - filled);
                    System.arraycopy(data, offset, chunk, filled, n);
                    filled += n;
                    offset += n;
                    length -= n;
                    if (filled == CHUNK) {
                        flush();
                    }
                }
            }

            @Override
            public void flush() throws IOException {
                if (filled > 0) {
                    put(filled == CHUNK ? chunk : Arrays.copyOf(chunk, filled));
                    chunk = new byte[CHUNK];
                    filled = 0;
                }
            }
        };
    }

    private void put(byte[] chunk) throws IOException {
        try {
            while (!chunks.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                if (readerGone) {
                    throw new IOException("the client stopped reading; rebuild abandoned");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("rebuild interrupted");
        }
    }

    /** Every byte was written and proved right. */
    void succeed() throws IOException {
        put(END);
    }

    /** The rebuild failed (or proved wrong): the reader throws {@code cause} instead of ending. */
    void fail(IOException cause) {
        failure = cause;
        chunks.clear();
        chunks.offer(END);
    }

    /** The reader's side: bytes {@code offset} to {@code offset + length - 1} ({@code length < 0}: to the end). */
    InputStream input(long offset, long length) {
        return new InputStream() {
            private long skip = offset;
            private long remaining = length < 0 ? Long.MAX_VALUE : length;
            private byte[] current = new byte[0];
            private int position;
            private byte[] next;
            private boolean ended;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                while (position == current.length || skip > 0) {
                    if (remaining == 0 || !advance()) {
                        return -1;
                    }
                }
                int n = (int) Math.min(Math.min(len, current.length - position), remaining);
                System.arraycopy(current, position, buffer, off, n);
                position += n;
                remaining -= n;
                return n;
            }

            /** Moves to the next chunk of the range, holding each back until the one after it (or success) is known. */
            private boolean advance() throws IOException {
                if (next == null && !ended) {
                    next = take();
                }
                if (next == END) {
                    ended = true;
                    next = null;
                    checkFailure();
                    return false;
                }
                byte[] chunk = next;
                next = null;
                if (skip >= chunk.length) {
                    skip -= chunk.length;
                    current = new byte[0];
                    position = 0;
                    return true;
                }
                int start = (int) skip;
                skip = 0;
                boolean lastOfRange = chunk.length - start >= remaining;
                if (lastOfRange) {
                    awaitSuccess();
                } else {
                    next = take();
                    if (next == END) {
                        checkFailure();
                    }
                }
                current = chunk;
                position = start;
                return true;
            }

            /** The range ends in this chunk: the rest of the layer must still prove right before it is released. */
            private void awaitSuccess() throws IOException {
                for (byte[] chunk = take(); chunk != END; chunk = take()) {
                    // bytes past the range: rebuilt only to check the digest
                }
                ended = true;
                checkFailure();
            }

            @Override
            public void close() {
                readerGone = true;
                chunks.clear();
            }
        };
    }

    private byte[] take() throws IOException {
        try {
            return chunks.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the rebuild");
        }
    }

    private void checkFailure() throws IOException {
        if (failure != null) {
            throw new IOException("the layer could not be rebuilt: " + failure.getMessage(), failure);
        }
    }
}
