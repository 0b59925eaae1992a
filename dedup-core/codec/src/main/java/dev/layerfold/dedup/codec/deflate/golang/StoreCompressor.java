package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;

/** Level 0 (NoCompression): stored blocks of 65535 bytes; Go's {@code store} in {@code deflate.go}. */
final class StoreCompressor extends StoreWindowCompressor {

    StoreCompressor(HuffmanBitWriter w) {
        super(w);
    }

    @Override
    void step(boolean sync) throws IOException {
        if (windowEnd > 0 && (windowEnd == window.length || sync)) {
            w.writeStoredBlock(window, 0, windowEnd);
            windowEnd = 0;
        }
    }
}
