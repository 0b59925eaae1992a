package dev.layerfold.dedup.codec.deflate.golang;

import java.io.IOException;

/**
 * One of the compression strategies Go's {@code compressor} (in {@code compress/flate/deflate.go})
 * selects by level through its {@code fill} and {@code step} function fields.
 */
abstract class Compressor {

    final HuffmanBitWriter w;

    Compressor(HuffmanBitWriter w) {
        this.w = w;
    }

    /** Copies as much of {@code b[offset..offset+length)} into the window as fits; returns how much. */
    abstract int fill(byte[] b, int offset, int length);

    /**
     * Processes the window, emitting the blocks that are complete. With {@code sync} (Go's
     * {@code d.sync}, set by flush and close) everything buffered is emitted.
     */
    abstract void step(boolean sync) throws IOException;

    /** Go's {@code compressor.reset}: forgets all input, keeping the buffers. */
    abstract void reset();
}
