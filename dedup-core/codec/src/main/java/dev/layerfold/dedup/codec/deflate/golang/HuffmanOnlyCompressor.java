package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;

/**
 * Level -2 (HuffmanOnly): each 65535-byte window as Huffman-coded literals, no match search; Go's
 * {@code storeHuff} in {@code deflate.go}.
 */
final class HuffmanOnlyCompressor extends StoreWindowCompressor {

    HuffmanOnlyCompressor(HuffmanBitWriter w) {
        super(w);
    }

    @Override
    void step(boolean sync) throws IOException {
        if (windowEnd < window.length && !sync || windowEnd == 0) {
            return;
        }
        w.writeBlockHuff(false, window, 0, windowEnd);
        windowEnd = 0;
    }
}
