package dev.layerfold.dedup.codec.deflate.zlib;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.TokenObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * zlib's raw deflate encoder in pure Java, bit for bit: a port of deflate.c and trees.c of zlib 1.2.13
 * (deflateInit2 with negative windowBits), so a layer compressed by zlib can be rebuilt on any JVM,
 * whatever zlib (or zlib-ng) the platform ships.
 *
 * <p>Which zlib versions write the same bytes. Verified here: the system zlib 1.2.13 (Debian bookworm;
 * every level, strategy, memLevel 1..9, windowBits 9..15, flush mode, dictionary, deflateParams and
 * deflatePrime sequence in the tests) and the zlib 1.3.2 bundled in Temurin 25's {@code Deflater} (levels
 * 1..9, default, filtered and Huffman-only). From zlib's sources and ChangeLog, not verified here: 1.2.12
 * to 1.3.x share this logic (1.2.12's switch from d_buf/l_buf to sym_buf kept the block boundary at
 * lit_bufsize - 1 symbols); 1.2.11 and older may differ under {@link ZlibStrategy#FIXED}, where 1.2.12
 * let a stored block win when smaller, and in deflateParams() right after deflateReset(); 1.2.8 and
 * older write level 0 differently (1.2.9 rewrote deflate_stored()). zlib-ng, Chromium's zlib and
 * Intel's or Cloudflare's forks choose matches differently and are a different encoder altogether.
 *
 * <p>Level 0 depends on the caller's buffer sizes in zlib. This encoder reproduces a caller that makes
 * one deflate() call per flush, with all of that input and room for all of its output (a one-shot
 * compress of a whole buffer): it stages level-0 input so how {@link #write} splits it does not matter.
 *
 * <p>Besides {@link DeflateEncoder}, this exposes the zlib calls pigz makes: {@link #reset},
 * {@link #params}, {@link #setDictionary}, {@link #flush}, {@link #pendingBits} and {@link #prime}. Not
 * thread-safe.
 */
public final class ZlibEncoder implements DeflateEncoder {

    /**
     * deflate_stored() writes blocks of at most this many bytes straight from the input: at level 0 every
     * block but the last holds this many, and nothing else crosses from one to the next.
     */
    public static final int MAX_STORED = 65535;

    private final DeflateState state;
    /** Level-0 input not yet given to deflate_stored(); see the class comment. */
    private final byte[] staged;
    private int stagedLength;

    private ZlibEncoder(OutputStream sink, ZlibSettings settings) {
        this.state = new DeflateState(new PendingOutput(Objects.requireNonNull(sink, "sink")), settings);
        this.staged = new byte[MAX_STORED + 1];
    }

    /** An encoder with zlib's defaults at {@code level} (0..9): memLevel 8, 32 KiB window. */
    public static ZlibEncoder create(OutputStream sink, int level) {
        return new ZlibEncoder(sink, ZlibSettings.of(level));
    }

    public static ZlibEncoder create(OutputStream sink, ZlibSettings settings) {
        return new ZlibEncoder(sink, Objects.requireNonNull(settings, "settings"));
    }

    /** deflate(Z_NO_FLUSH) over the given bytes. */
    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (state.level() != 0) {
            run(data, offset, length, DeflateState.NO_FLUSH);
            return;
        }
        while (length > 0) {
            int n = Math.min(length, staged.length - stagedLength);
            System.arraycopy(data, offset, staged, stagedLength, n);
            stagedLength += n;
            offset += n;
            length -= n;
            if (stagedLength == staged.length) {
                // A full stored block leaves; one byte stays so a final block is still marked last.
                run(staged, 0, MAX_STORED, DeflateState.NO_FLUSH);
                staged[0] = staged[MAX_STORED];
                stagedLength = 1;
            }
        }
    }

    /** deflate() with the given flush mode and no new input. */
    public void flush(ZlibFlush mode) throws IOException {
        run(staged, 0, takeStaged(), mode.ordinal());
    }

    /** deflate(Z_FINISH): writes the last block. */
    @Override
    public void finish() throws IOException {
        flush(ZlibFlush.FINISH);
    }

    /** deflateReset(): a new stream with the same settings; the window keeps its old bytes, as in zlib. */
    public void reset() {
        stagedLength = 0;
        state.reset();
    }

    /** deflateParams(). */
    public void params(int level, ZlibStrategy strategy) throws IOException {
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("zlib level must be 0..9, got " + level);
        }
        if (stagedLength > 0) {
            run(staged, 0, takeStaged(), DeflateState.NO_FLUSH);
        }
        try {
            state.params(level, Objects.requireNonNull(strategy, "strategy"));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** deflateSetDictionary(): only before any input, right after creation or {@link #reset}. */
    public void setDictionary(byte[] dictionary, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, dictionary.length);
        if (stagedLength > 0) {
            throw new IllegalStateException("deflateSetDictionary after input (zlib's Z_STREAM_ERROR)");
        }
        state.setDictionary(dictionary, offset, length);
    }

    @Override
    public boolean observeTokens(TokenObserver observer) {
        state.observeTokens(observer);
        return true;
    }

    /** deflatePending()'s bit count: output bits not yet completing a byte (0..7). */
    public int pendingBits() {
        return state.pendingBits();
    }

    /** deflatePrime(): inserts the low {@code bits} (0..16) bits of {@code value} into the output. */
    public void prime(int bits, int value) {
        state.prime(bits, value);
    }

    /**
     * Continues this stream (fresh, at a lazy level, 4 to 9) from a block boundary its producer
     * flushed to (deflate() with Z_BLOCK or Z_SYNC_FLUSH; nothing pending), byte aligned, with
     * {@code history[offset..offset+length)} the input right before it (its last 32 KiB at least).
     *
     * @throws IllegalArgumentException if the state is not one such a flush leaves, or the level is not lazy
     */
    public void resumeFlushed(LazyRestartState boundary, byte[] history, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, history.length);
        if (!LazySegmentEncoder.restartable(state.level()) || LazyRestartState.fastLevel(state.level())) {
            throw new IllegalArgumentException("only zlib's lazy levels (4 to 9) resume from a flushed boundary, not level " + state.level());
        }
        if (boundary.matchAvailable() || boundary.matchLength() != 2 || boundary.matchDistance() != 0) {
            throw new IllegalArgumentException("a flush leaves nothing pending, not " + boundary);
        }
        state.resume(boundary, history, offset, length, 0);
    }

    /** Where this stream stands after a flush to a block boundary ({@link #flush} with Z_BLOCK or Z_SYNC_FLUSH). */
    public LazyRestartState flushedBoundary() {
        return state.flushedBoundary();
    }

    private int takeStaged() {
        int n = stagedLength;
        stagedLength = 0;
        return n;
    }

    private void run(byte[] data, int offset, int length, int flush) throws IOException {
        try {
            state.deflate(data, offset, length, flush);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
