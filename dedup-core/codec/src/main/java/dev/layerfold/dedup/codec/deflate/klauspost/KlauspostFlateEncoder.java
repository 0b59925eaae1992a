package dev.layerfold.dedup.codec.deflate.klauspost;

import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Go 1.27's standard-library DEFLATE encoder ({@code compress/flate.Writer}), reproduced bit for
 * bit. Go 1.27 replaced its encoder with a trimmed copy of klauspost/compress's {@code flate}:
 * specialised encoders for levels 1 to 6 over 64 KiB blocks, lazy hash chains for 7 to 9, and
 * Huffman tables that may stay open across blocks. This is what docker, buildkit, containerd,
 * crane, ko and kaniko write when built with Go 1.27 or later.
 *
 * <p>Ported from Go 1.27.3's {@code compress/flate} ({@code deflate.go}, {@code deflatefast.go},
 * {@code level1.go} to {@code level6.go}, {@code huffman_bit_writer.go}, {@code huffman_code.go},
 * {@code token.go}); each class names the Go code it carries. The klauspost/compress releases
 * it came from differ from it where {@link FlateRelease} says.
 *
 * <p>Levels: -2 (HuffmanOnly), -1 (default, which is 6), 0 (stored), 1 to 9.
 */
public final class KlauspostFlateEncoder implements SyncFlushEncoder {

    private static final int HUFFMAN_ONLY = -2;
    private static final int DEFAULT_COMPRESSION = -1;

    private final HuffmanBitWriter w;
    private final Compressor compressor;
    private State state = State.OPEN;

    private enum State { OPEN, FINISHED, FAILED }

    private KlauspostFlateEncoder(HuffmanBitWriter w, Compressor compressor) {
        this.w = w;
        this.compressor = compressor;
    }

    /**
     * An encoder writing to {@code sink} what Go 1.27's {@code flate.NewWriter(sink, level)} writes.
     *
     * @throws IllegalArgumentException when {@code level} is outside [-2, 9], as Go rejects it
     */
    public static KlauspostFlateEncoder go127(OutputStream sink, int level) {
        return create(sink, level, FlateRelease.GO_1_27);
    }

    /**
     * An encoder writing to {@code sink} what {@code flate.NewWriter(sink, level)} of {@code release} writes.
     *
     * @throws IllegalArgumentException when {@code level} is outside [-2, 9], as Go rejects it
     */
    static KlauspostFlateEncoder create(OutputStream sink, int level, FlateRelease release) {
        Objects.requireNonNull(sink, "sink");
        return switch (level) {
            case 0 -> {
                HuffmanBitWriter w = new HuffmanBitWriter(sink, 0, release);
                yield new KlauspostFlateEncoder(w, new Compressor.Store(w));
            }
            case HUFFMAN_ONLY -> {
                HuffmanBitWriter w = new HuffmanBitWriter(sink, 10, release);
                yield new KlauspostFlateEncoder(w, new Compressor.HuffmanOnly(w));
            }
            case DEFAULT_COMPRESSION, 1, 2, 3, 4, 5, 6 -> {
                HuffmanBitWriter w = new HuffmanBitWriter(sink, release.openBlockFillsEveryCode ? 8 : 7, release);
                yield new KlauspostFlateEncoder(w, new Compressor.Fast(w, level == DEFAULT_COMPRESSION ? 6 : level, release));
            }
            case 7, 8, 9 -> {
                HuffmanBitWriter w = new HuffmanBitWriter(sink, 8, release);
                yield new KlauspostFlateEncoder(w, new LazyCompressor(w, level, release));
            }
            default -> throw new IllegalArgumentException(
                    "invalid Go flate compression level " + level + ": want a value in [-2, 9]");
        };
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        ensureOpen();
        try {
            while (length > 0) {
                if (compressor.full()) {
                    compressor.step(false);
                }
                int n = compressor.fill(data, offset, length);
                offset += n;
                length -= n;
            }
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    /** Go's {@code Writer.Flush}: emits everything buffered, then an empty stored block. */
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

    /** Go's {@code Writer.Close}: emits everything buffered, then an empty final block. */
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

    /** Go's {@code Writer.Reset} (without a dictionary): a new stream to {@code sink}, same level. */
    public void reset(OutputStream sink) {
        w.reset(Objects.requireNonNull(sink, "sink"));
        compressor.reset();
        state = State.OPEN;
    }

    /**
     * Go's {@code Writer.ResetDict}: a new stream to {@code sink} whose matches may reach into
     * {@code dict[offset..offset+length)} (its last 32 KiB), as pgzip primes each block with the
     * previous block's tail.
     */
    public void reset(OutputStream sink, byte[] dict, int offset, int length) {
        reset(sink);
        Objects.checkFromIndexSize(offset, length, dict.length);
        compressor.fillWindow(dict, offset, length);
    }

    private void ensureOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException(state == State.FINISHED
                    ? "the encoder is finished; reset it to start a new stream"
                    : "an earlier write failed; reset the encoder to start a new stream");
        }
    }
}
