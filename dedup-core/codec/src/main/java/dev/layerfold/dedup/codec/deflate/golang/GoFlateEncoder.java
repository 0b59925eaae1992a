package dev.layerfold.dedup.codec.deflate.golang;

import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import dev.layerfold.dedup.codec.deflate.TokenObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Go's standard-library DEFLATE encoder ({@code compress/flate.Writer}), reproduced bit for bit:
 * the encoder behind {@code compress/gzip} in docker, buildkit and containerd (level 6) and in
 * go-containerregistry's crane, ko and kaniko (level 1).
 *
 * <p>Ported from Go 1.26.8's {@code compress/flate} ({@code deflate.go}, {@code deflatefast.go},
 * {@code huffman_bit_writer.go}, {@code huffman_code.go}, {@code token.go}); each class names the
 * Go file and functions it carries. Verified against Go 1.26.8 only (the tests use whichever Go is
 * installed as the oracle). Issue 4 records that Go 1.8 to 1.26 write this same output, that Go 1.7
 * and earlier differ and that Go 1.27 adopts the klauspost encoder: streams from those versions
 * need another encoder.
 *
 * <p>Levels: -2 (HuffmanOnly), -1 (default, which is 6), 0 (stored), 1 (BestSpeed), 2 to 9.
 * Like Go's writer, this keeps up to 64 KiB of input (128 KiB of window at levels 2 to 9) and a
 * few hundred bytes of output pending; {@link #flush()} and {@link #finish()} emit them.
 */
public final class GoFlateEncoder implements SyncFlushEncoder {

    /** Go's {@code flate.HuffmanOnly}. */
    static final int HUFFMAN_ONLY = -2;
    private static final int DEFAULT_COMPRESSION = -1;

    private final int level;
    private final HuffmanBitWriter w;
    private final Compressor compressor;
    private State state = State.OPEN;

    private enum State { OPEN, FINISHED, FAILED }

    private GoFlateEncoder(int level, HuffmanBitWriter w, Compressor compressor) {
        this.level = level;
        this.w = w;
        this.compressor = compressor;
    }

    /**
     * An encoder writing to {@code sink} what Go's {@code flate.NewWriter(sink, level)} writes.
     *
     * @throws IllegalArgumentException when {@code level} is outside [-2, 9], as Go rejects it
     */
    public static GoFlateEncoder create(OutputStream sink, int level) {
        Objects.requireNonNull(sink, "sink");
        HuffmanBitWriter w = new HuffmanBitWriter(sink);
        Compressor compressor = switch (level) {
            case 0 -> new StoreCompressor(w);
            case HUFFMAN_ONLY -> new HuffmanOnlyCompressor(w);
            case 1 -> new BestSpeedCompressor(w);
            case DEFAULT_COMPRESSION -> new HashChainCompressor(w, CompressionLevel.of(6));
            case 2, 3, 4, 5, 6, 7, 8, 9 -> new HashChainCompressor(w, CompressionLevel.of(level));
            default -> throw new IllegalArgumentException(
                    "invalid Go flate compression level " + level + ": want a value in [-2, 9]");
        };
        return new GoFlateEncoder(level, w, compressor);
    }

    /**
     * Levels 2 to 9 only: level 1 writes a block of literals where that is smaller than its
     * tokens, and levels 0 and -2 find none.
     */
    @Override
    public boolean observeTokens(TokenObserver observer) {
        if (compressor instanceof HashChainCompressor hashChain) {
            hashChain.observeTokens(observer);
            return true;
        }
        return false;
    }

    /** The level this encoder was created with, as given (-1 stays -1). */
    public int level() {
        return level;
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        ensureOpen();
        try {
            while (length > 0) {
                compressor.step(false);
                int n = compressor.fill(data, offset, length);
                offset += n;
                length -= n;
            }
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * Go's {@code Writer.Flush} (zlib's Z_SYNC_FLUSH): emits everything buffered, then an empty
     * stored block that byte-aligns the output, even when nothing was buffered.
     */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        try {
            compressor.step(true);
            w.writeStoredHeader(0, false);
            w.flush();
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /** Go's {@code Writer.Close}: emits everything buffered, then an empty final stored block. */
    @Override
    public void finish() throws IOException {
        ensureOpen();
        try {
            compressor.step(true);
            w.writeStoredHeader(0, true);
            w.flush();
            state = State.FINISHED;
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * Go's {@code Writer.Reset}: discards all state and starts a new stream to {@code sink} at the
     * same level, reusing the buffers (about 800 KiB at levels 2 to 9).
     */
    public void reset(OutputStream sink) {
        w.reset(Objects.requireNonNull(sink, "sink"));
        compressor.reset();
        state = State.OPEN;
    }

    private void ensureOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException(state == State.FINISHED
                    ? "the encoder is finished; reset it to start a new stream"
                    : "an earlier write failed; reset the encoder to start a new stream");
        }
    }
}
