package dev.layerfold.dedup.codec.deflate.golang;

/**
 * A compressor whose window is one stored block's worth of input (levels 0, 1 and HuffmanOnly),
 * filled by Go's {@code fillStore} ({@code compress/flate/deflate.go}).
 */
abstract class StoreWindowCompressor extends Compressor {

    final byte[] window = new byte[HuffmanBitWriter.MAX_STORE_BLOCK_SIZE];
    int windowEnd;

    StoreWindowCompressor(HuffmanBitWriter w) {
        super(w);
    }

    @Override
    final int fill(byte[] b, int offset, int length) {
        int n = Math.min(length, window.length - windowEnd);
        System.arraycopy(b, offset, window, windowEnd, n);
        windowEnd += n;
        return n;
    }

    /** Whether the window holds a whole block: the next step encodes it. */
    final boolean full() {
        return windowEnd == window.length;
    }

    @Override
    void reset() {
        windowEnd = 0;
    }
}
