package dev.layerfold.restore;

import dev.layerfold.dedup.codec.recipe.FileRef;
import dev.layerfold.dedup.codec.io.LayerRebuildException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A file too large to hold whole, decompressed ahead of the encoder on a fetcher thread, in pieces
 * of {@link #PIECE} bytes with at most {@link #PIECES} of them made and not yet read. Streamed on
 * the encoder's thread instead, a layer's large files were most of what a restore on one thread
 * did besides encoding (105 MB of system files, Go -1: a quarter of the encoder's own time). The
 * fetcher is not held while the encoder catches up: a task makes pieces while there is room and
 * ends, and the reader starts another when it frees one.
 */
final class StreamedAhead extends InputStream {

    static final int PIECE = 1 << 20;
    /**
     * Pieces made ahead: a segmented restore's feeder fills 4 MiB segments in a burst, and with two
     * pieces it waited on the fetcher while both cores encoded (a 105 MB layer on 2 threads 0.58x of
     * its files in memory in one run, 0.93x with four in the next; both on a shared box).
     */
    static final int PIECES = 4;
    /** The heap one holds at most: its pieces, and the decompression stream's input buffer (zstd's block, 128 KiB, and change). */
    static final long HEAP_BOUND = (long) PIECES * PIECE + (256 << 10);

    interface Opener {
        InputStream open() throws IOException;
    }

    private record Piece(byte[] bytes, int length) {
    }

    private final FileRef ref;
    private final Opener opener;
    private final Executor fetchers;
    private final ArrayDeque<byte[]> empty = new ArrayDeque<>();
    private final ArrayDeque<Piece> made = new ArrayDeque<>();
    /** Only the task making pieces touches it; it is closed by that task or, once none runs, by {@link #close}. */
    private InputStream decompressed;
    private long produced;
    private boolean making;
    private boolean closed;
    private IOException failure;
    private Piece reading;
    private int readAt;

    StreamedAhead(FileRef ref, Opener opener, Executor fetchers) {
        this.ref = ref;
        this.opener = opener;
        this.fetchers = fetchers;
        int pieces = (int) Math.min(PIECES, (ref.size() + PIECE - 1) / PIECE);
        for (int i = 0; i < Math.max(1, pieces); i++) {
            empty.add(new byte[(int) Math.min(PIECE, Math.max(1, ref.size()))]);
        }
        synchronized (this) {
            makeMore();
        }
    }

    FileRef ref() {
        return ref;
    }

    /** Starts a task that makes pieces, unless one runs, there is no room, or the file is made. */
    private void makeMore() {
        if (making || closed || failure != null || empty.isEmpty() || produced >= ref.size()) {
            return;
        }
        making = true;
        try {
            fetchers.execute(this::make);
        } catch (RejectedExecutionException e) {
            making = false;
            failure = new IOException("the registry is shutting down", e);
        }
    }

    private void make() {
        try {
            while (true) {
                byte[] into;
                long from;
                synchronized (this) {
                    if (closed || empty.isEmpty() || produced >= ref.size()) {
                        making = false;
                        if (closed || produced >= ref.size()) {
                            closeDecompressed();
                        }
                        notifyAll();
                        return;
                    }
                    into = empty.poll();
                    from = produced;
                }
                if (decompressed == null) {
                    decompressed = opener.open();
                }
                int want = (int) Math.min(into.length, ref.size() - from);
                int n = decompressed.readNBytes(into, 0, want);
                if (n < want) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " ended " + (ref.size() - from - n) + " bytes short of its "
                            + ref.size() + " bytes");
                }
                if (from + n == ref.size() && decompressed.read() >= 0) {
                    throw new LayerRebuildException("file body " + ref.sha256() + " is longer than its " + ref.size() + " bytes");
                }
                synchronized (this) {
                    made.add(new Piece(into, n));
                    produced += n;
                    notifyAll();
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failure = e instanceof IOException io ? io : new IOException(e);
                making = false;
                closeDecompressed();
                notifyAll();
            }
        }
    }

    private void closeDecompressed() {
        if (decompressed != null) {
            try {
                decompressed.close();
            } catch (IOException e) {
                // Read to its end or given up: nothing is lost.
            }
            decompressed = null;
        }
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
        if (reading == null || readAt == reading.length()) {
            reading = next();
            readAt = 0;
            if (reading == null) {
                return -1;
            }
        }
        int n = Math.min(length, reading.length() - readAt);
        System.arraycopy(reading.bytes(), readAt, buffer, offset, n);
        readAt += n;
        return n;
    }

    /** The next piece, once it is made (the one read to its end goes back to be filled again); null at the end. */
    private synchronized Piece next() throws IOException {
        if (reading != null) {
            empty.add(reading.bytes());
            makeMore();
        }
        try {
            while (made.isEmpty()) {
                if (failure != null) {
                    throw failure instanceof LayerRebuildException rebuild ? new LayerRebuildException(rebuild.getMessage())
                            : new IOException("reading stored file " + ref.sha256() + " failed: " + failure.getMessage(), failure);
                }
                if (produced >= ref.size() && !making) {
                    return null;
                }
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while fetching stored file " + ref.sha256());
        }
        return made.poll();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (!making) {
            closeDecompressed();
        }
    }
}
