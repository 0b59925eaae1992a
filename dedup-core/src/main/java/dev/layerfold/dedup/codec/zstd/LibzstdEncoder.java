package dev.layerfold.dedup.codec.zstd;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;

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
    private final ZstdCompressCtx context = new ZstdCompressCtx();
    private final ByteBuffer input = ByteBuffer.allocateDirect(PIECE);
    private final ByteBuffer output = ByteBuffer.allocateDirect(PIECE + 4096);
    private final byte[] copy = new byte[PIECE + 4096];
    private final boolean endsAfterInput;
    /** The last input, not yet given to the library: it goes with ZSTD_e_end if no more comes. */
    private final byte[] held = new byte[PIECE];
    private int heldLength;
    private boolean closed;

    /** @param contentSize pledged to the library if not negative (the frame then records it) */
    LibzstdEncoder(LibzstdSettings settings, long contentSize, OutputStream sink) {
        this.sink = sink;
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
            if (heldLength == PIECE) {
                give(held, 0, heldLength);
                heldLength = 0;
            }
            int n = Math.min(length, PIECE - heldLength);
            System.arraycopy(data, offset, held, heldLength, n);
            heldLength += n;
            offset += n;
            length -= n;
        }
        if (endsAfterInput) {
            give(held, 0, heldLength);
            heldLength = 0;
        }
    }

    private void give(byte[] data, int offset, int length) throws IOException {
        input.clear();
        input.put(data, offset, length).flip();
        while (input.hasRemaining()) {
            compress(EndDirective.CONTINUE);
        }
    }

    @Override
    public void drain() throws IOException {
        input.clear().flip();
        compress(EndDirective.CONTINUE);
    }

    @Override
    public void finish() throws IOException {
        input.clear();
        input.put(held, 0, heldLength).flip();
        heldLength = 0;
        try {
            while (!compress(EndDirective.END)) {
                // each call moves at most one output buffer's worth
            }
        } finally {
            close();
        }
    }

    private boolean compress(EndDirective directive) throws IOException {
        boolean done;
        try {
            done = context.compressDirectByteBufferStream(output, input, directive);
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
            context.close();
        }
    }
}
