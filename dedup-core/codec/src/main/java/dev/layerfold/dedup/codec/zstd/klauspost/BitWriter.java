package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Writes bits least significant first, as zstd's FSE and Huffman streams are. When the Go encoder
 * flushes its 64-bit container does not change the bytes, so this one flushes whenever 32 bits are there.
 */
final class BitWriter {

    private Bytes out;
    private long container;
    private int bits;

    void reset(Bytes out) {
        this.out = out;
        container = 0;
        bits = 0;
    }

    /** Adds the low {@code n} (at most 32) bits of {@code value}; the others are ignored. */
    void add(long value, int n) {
        container |= (value & ((1L << n) - 1)) << bits;
        bits += n;
        if (bits >= 32) {
            out.putInt((int) container);
            container >>>= 32;
            bits -= 32;
        }
    }

    /** Adds {@code n} (at most 64) bits. */
    void addLong(long value, int n) {
        if (n > 32) {
            add(value, 32);
            add(value >>> 32, n - 32);
        } else {
            add(value, n);
        }
    }

    /** Ends the stream with the closing 1 bit and pads to a byte. */
    void close() {
        add(1, 1);
        out.putLittleEndian(container, (bits + 7) >> 3);
        container = 0;
        bits = 0;
    }
}
