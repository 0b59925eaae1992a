package dev.layerfold.dedup.codec.deflate.klauspost;

import java.io.IOException;

/**
 * One of the strategies Go 1.27's {@code compressor} selects by level through its {@code fill}
 * and {@code step} functions ({@code compress/flate/deflate.go}). Unlike Go 1.26's, {@code step}
 * runs only once the window is full, or on a flush or close.
 */
abstract class Compressor {

    final HuffmanBitWriter w;

    Compressor(HuffmanBitWriter w) {
        this.w = w;
    }

    /** True when the window can take no more input. */
    abstract boolean full();

    /** Copies as much of {@code b[offset..offset+length)} into the window as fits; returns how much. */
    abstract int fill(byte[] b, int offset, int length);

    /** Compresses the window; with {@code sync} (flush or close) everything buffered is emitted. */
    abstract void step(boolean sync) throws IOException;

    /** Forgets all input, keeping the buffers. */
    abstract void reset();

    /**
     * Go's {@code fillWindow} after a reset: {@code dict} becomes history that matches may reach,
     * without producing output. Stored and Huffman-only levels keep no history.
     */
    void fillWindow(byte[] dict, int offset, int length) {
    }

    /** The window of the levels that compress one window-sized block at a time (-2, 0, 1 to 6). */
    abstract static class Blockwise extends Compressor {

        final byte[] window;
        int windowEnd;

        Blockwise(HuffmanBitWriter w, int windowSize) {
            super(w);
            this.window = new byte[windowSize];
        }

        @Override
        final boolean full() {
            return windowEnd == window.length;
        }

        @Override
        final int fill(byte[] b, int offset, int length) {
            int n = Math.min(length, window.length - windowEnd);
            System.arraycopy(b, offset, window, windowEnd, n);
            windowEnd += n;
            return n;
        }

        final void writeStoredBlock(int length) throws IOException {
            w.writeStoredHeader(length, false);
            w.writeBytes(window, 0, length);
        }
    }

    /** Level 0: stored blocks of up to 65535 bytes ({@code store}). */
    static final class Store extends Blockwise {

        Store(HuffmanBitWriter w) {
            super(w, HuffmanBitWriter.MAX_STORE_BLOCK_SIZE);
        }

        @Override
        void step(boolean sync) throws IOException {
            if (windowEnd > 0 && (windowEnd == window.length || sync)) {
                writeStoredBlock(windowEnd);
                windowEnd = 0;
            }
        }

        @Override
        void reset() {
            windowEnd = 0;
        }
    }

    /** Level -2: Huffman-coded literals in 32 KiB blocks ({@code deflateHuff}). */
    static final class HuffmanOnly extends Blockwise {

        HuffmanOnly(HuffmanBitWriter w) {
            super(w, 32 << 10);
        }

        @Override
        void step(boolean sync) throws IOException {
            if (windowEnd < window.length && !sync || windowEnd == 0) {
                return;
            }
            w.writeBlockHuff(false, window, 0, windowEnd, sync);
            windowEnd = 0;
        }

        @Override
        void reset() {
            windowEnd = 0;
        }
    }

    /** Levels 1 to 6: one 65535-byte block at a time through a fast encoder ({@code deflateFast}). */
    static final class Fast extends Blockwise {

        private final FastEncoder fast;
        private final Tokens tokens;

        Fast(HuffmanBitWriter w, int level, FlateRelease release) {
            super(w, HuffmanBitWriter.MAX_STORE_BLOCK_SIZE);
            this.fast = FastEncoder.forLevel(level, release);
            this.tokens = new Tokens(release.longMatchesCutAt255);
        }

        @Override
        void step(boolean sync) throws IOException {
            if (windowEnd < window.length) {
                if (!sync) {
                    return;
                }
                if (windowEnd < 128) {
                    if (windowEnd == 0) {
                        return;
                    }
                    if (windowEnd <= 32) {
                        writeStoredBlock(windowEnd);
                    } else {
                        w.writeBlockHuff(false, window, 0, windowEnd, true);
                    }
                    tokens.reset();
                    windowEnd = 0;
                    fast.reset();
                    return;
                }
            }
            fast.encode(tokens, window, 0, windowEnd);
            if (tokens.n == 0) {
                writeStoredBlock(windowEnd);
            } else if (tokens.n > windowEnd - (windowEnd >> 4)) {
                w.writeBlockHuff(false, window, 0, windowEnd, sync);
            } else {
                w.writeBlockDynamic(tokens, false, window, 0, windowEnd, sync);
            }
            tokens.reset();
            windowEnd = 0;
        }

        @Override
        void reset() {
            windowEnd = 0;
            fast.reset();
            tokens.reset();
        }

        @Override
        void fillWindow(byte[] dict, int offset, int length) {
            int keep = Math.min(length, FastEncoder.MAX_MATCH_OFFSET);
            fast.encode(tokens, dict, offset + length - keep, keep);
            tokens.reset();
        }

        /** A fresh compressor about to take block {@code block}: see {@link FastEncoder#startAtBlock}. */
        void startAtBlock(long block, byte[] input, int offset, int length) {
            fast.startAtBlock(block, input, offset, length);
        }

        /** Runs the match finder over one block as {@link #step} would, writing nothing: its tables warm up. */
        void warmUp(byte[] block, int offset, int length) {
            fast.encode(tokens, block, offset, length);
            tokens.reset();
        }

        /** Whether the next blocks are matched as {@code other} would match them (both between blocks). */
        boolean sameMatchState(Fast other) {
            return windowEnd == 0 && other.windowEnd == 0 && fast.sameMatchState(other.fast);
        }
    }
}
