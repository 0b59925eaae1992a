package dev.layerfold.dedup.codec.zstd;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The C library's streaming compressor, through zstd-jni, set up as the zstd CLI and programs that
 * call the library set it up: a level, one worker thread or none, the checksum flag, and the content
 * size pledged when the frame records it. Input is fed in pieces with ZSTD_e_continue and the frame
 * ended with ZSTD_e_end, given with the last piece or after it as the producer did
 * ({@link LibzstdSettings#endsAfterInput}): so the last piece is held back until the next write or
 * the end. The output does not depend on how the input was cut otherwise.
 */
final class LibzstdEncoder implements ZstdEncoder {

    private static final int PIECE = 128 * 1024;

    private final OutputStream sink;
    private final ZstdCompressCtx context;
    private final boolean ownsContext;
    private final ByteBuffer nothing = ByteBuffer.allocateDirect(0);

    /** Input being filled; the last piece stays here until more comes or the end, so that it can go with ZSTD_e_end. */
    private final ByteBuffer input = ByteBuffer.allocateDirect(PIECE);
    private final ByteBuffer output = ByteBuffer.allocateDirect(PIECE + 4096);
    private final byte[] copy = new byte[PIECE + 4096];
    private final boolean endsAfterInput;
    private boolean closed;

    /**
     * @param contentSize pledged to the library if not negative (the frame then records it)
     * @param shared      a context to reset and use (its tables and window are then allocated once for
     *                    several candidates, which halves what a high level costs to reject), left open;
     *                    null for one of its own, closed with this encoder
     */
    LibzstdEncoder(LibzstdSettings settings, long contentSize, OutputStream sink, ZstdCompressCtx shared) {
        this.sink = sink;
        this.ownsContext = shared == null;
        this.context = ownsContext ? new ZstdCompressCtx() : shared;
        if (!ownsContext) {
            context.reset();
        }
        this.endsAfterInput = settings.endsAfterInput();
        try {
            context.setLevel(settings.level());
            context.setWorkers(settings.workers());
            context.setChecksum(settings.checksum());
            context.setContentSize(true);
            if (contentSize >= 0) {
                context.setPledgedSrcSize(contentSize);
            }
        } catch (ZstdException e) {
            close();
            throw new IllegalArgumentException("libzstd refuses " + settings + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            if (!input.hasRemaining()) {
                give();
            }
            int n = Math.min(length, input.remaining());
            input.put(data, offset, n);
            offset += n;
            length -= n;
        }
        if (endsAfterInput) {
            give();
        }
    }

    /** Gives the library what the input buffer holds (being filled until now) with ZSTD_e_continue. */
    private void give() throws IOException {
        input.flip();
        while (input.hasRemaining()) {
            compress(input, EndDirective.CONTINUE);
        }
        input.clear();
    }

    @Override
    public void drain() throws IOException {
        compress(nothing, EndDirective.CONTINUE);
    }

    /**
     * Gives the library the input held back and ends the job under way with ZSTD_e_flush, writing all
     * it made: with worker threads, the next input starts a new job (the frame goes on).
     */
    void flush() throws IOException {
        input.flip();
        while (!compress(input, EndDirective.FLUSH) || input.hasRemaining()) {
            // each call moves at most one output buffer's worth
        }
        input.clear();
    }

    /**
     * Writes {@code length} bytes, the first of the frame, as a job of their own whose output is not
     * used (the history the next job reloads as raw content, its only state), and sets up the
     * level's own search for the jobs after. That job is compressed with the level's strategy and
     * window, on which how libzstd cuts and compresses the later jobs depends, but with its least
     * search and smallest tables: a twelfth of what level 19 costs on 8 MiB of overlap. Changing
     * these while compressing is allowed: later jobs take the level's parameters anew
     * (ZSTDMT_updateCParams_whileCompressing), the window kept.
     */
    void writeUnusedFirstJob(byte[] data, int offset, int length) throws IOException {
        setSearch(1, 6, 6, 1);
        write(data, offset, length);
        flush();
        setSearch(0, 0, 0, 0);
    }

    /** Overrides the level's search depth, table sizes and target length; 0 each: the level's. */
    private void setSearch(int searchLog, int chainLog, int hashLog, int targetLength) throws IOException {
        try {
            context.setSearchLog(searchLog).setChainLog(chainLog).setHashLog(hashLog).setTargetLength(targetLength);
        } catch (ZstdException e) {
            throw new IOException("libzstd refuses its search parameters: " + e.getMessage(), e);
        }
    }

    @Override
    public void finish() throws IOException {
        input.flip();
        try {
            while (!compress(input, EndDirective.END)) {
                // each call moves at most one output buffer's worth
            }
        } finally {
            close();
        }
    }

    private boolean compress(ByteBuffer from, EndDirective directive) throws IOException {
        boolean done;
        try {
            done = context.compressDirectByteBufferStream(output, from, directive);
        } catch (ZstdException e) {
            throw new IOException("libzstd failed: " + e.getMessage(), e);
        }
        output.flip();
        int n = output.remaining();
        output.get(copy, 0, n);
        output.clear();
        sink.write(copy, 0, n);
        return done;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (ownsContext) {
                context.close();
            }
        }
    }
}
