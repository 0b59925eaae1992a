package dev.layerfold.dedup.codec.container;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.layerfold.dedup.codec.io.LayerFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Decompresses zstd frames fed to it piece by piece, through zstd-jni's streaming decoder, handing
 * the content to a listener as it comes. The frames' structure is read by the caller; this checks
 * their content (and checksum, and recorded size). Windows above libzstd's default limit (128 MiB,
 * {@code --long=28} and up) are refused, which bounds what a frame can make it allocate. Holds native
 * memory until closed. Not thread-safe.
 */
public final class ZstdDecoder implements AutoCloseable {

    /** Where decompressed bytes go. */
    @FunctionalInterface
    public interface Listener {
        void content(byte[] data, int offset, int length) throws IOException;
    }

    private static final int BUFFER = 128 * 1024;

    private final ZstdDecompressCtx context = new ZstdDecompressCtx();
    private final ByteBuffer input = ByteBuffer.allocateDirect(BUFFER);
    private final ByteBuffer output = ByteBuffer.allocateDirect(BUFFER);
    private final byte[] copy = new byte[BUFFER];
    private boolean frameEnded;

    /** Decodes {@code length} bytes of the frame under way, which may end it. */
    public void write(byte[] data, int offset, int length, Listener listener) throws IOException {
        while (length > 0) {
            int n = Math.min(length, BUFFER);
            input.clear();
            input.put(data, offset, n).flip();
            decode(listener);
            offset += n;
            length -= n;
        }
    }

    /**
     * The caller read the frame's last byte: checks that the decoder saw the frame end and gave out
     * all its content, and readies it for the next frame.
     */
    public void endFrame(long offset, Listener listener) throws IOException {
        input.clear().flip();
        decode(listener);
        if (!frameEnded) {
            throw new LayerFormatException("zstd frame ending at offset " + offset + " does not decode to its end");
        }
        frameEnded = false;
    }

    private void decode(Listener listener) throws IOException {
        boolean full;
        do {
            try {
                frameEnded |= context.decompressDirectByteBufferStream(output, input);
            } catch (ZstdException e) {
                throw new LayerFormatException("corrupt zstd data: " + e.getMessage());
            }
            output.flip();
            int n = output.remaining();
            full = n == BUFFER;
            output.get(copy, 0, n);
            output.clear();
            if (n > 0) {
                listener.content(copy, 0, n);
            }
            if (frameEnded && input.hasRemaining()) {
                throw new LayerFormatException("zstd frame decodes to its end before its last block");
            }
        } while (input.hasRemaining() || full);
    }

    @Override
    public void close() {
        context.close();
    }
}
