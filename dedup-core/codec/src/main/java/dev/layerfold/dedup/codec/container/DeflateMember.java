package dev.layerfold.dedup.codec.container;

import dev.layerfold.dedup.codec.io.LayerFormatException;

import java.io.IOException;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads one gzip member's raw deflate stream and trailer from the blob, streaming: the inflater
 * reads the blob's buffer in place, and what it leaves unused after the stream's last block is the
 * trailer and whatever follows. Both the original deflate bytes and the decompressed bytes go to a
 * listener as they are found, the deflate bytes of a chunk always before its decompressed bytes.
 */
public final class DeflateMember {

    /** Receives a member's bytes as they are read. */
    public interface Listener {

        /** The next original deflate bytes, in order. */
        void deflated(byte[] data, int offset, int length) throws IOException;

        /** The next decompressed bytes, in order. */
        void inflated(byte[] data, int offset, int length) throws IOException;
    }

    /** What follows the deflate stream: the verbatim trailer and the count it was checked against. */
    public record End(byte[] trailer, long uncompressedSize) {
    }

    private final Inflater inflater = new Inflater(true);
    private final byte[] out;
    private final CRC32 crc = new CRC32();

    public DeflateMember(int outputBufferSize) {
        this.out = new byte[outputBufferSize];
    }

    /** Reads the member's deflate stream and trailer, checking CRC32 and ISIZE. */
    public End read(BlobInput in, Listener listener) throws IOException {
        long start = in.offset();
        inflater.reset();
        crc.reset();
        long produced = 0;
        while (!inflater.finished()) {
            if (inflater.needsInput()) {
                if (in.fill() == 0) {
                    throw new LayerFormatException("gzip member at offset " + start + " is truncated: its deflate stream ends at byte " + in.offset()
                            + " of the blob without a final block");
                }
                inflater.setInput(in.buffer(), in.position(), in.available());
            }
            int before = inflater.getRemaining();
            int n;
            try {
                n = inflater.inflate(out);
            } catch (DataFormatException e) {
                throw new LayerFormatException("gzip member at offset " + start + " holds corrupt deflate data near byte " + in.offset()
                        + " of the blob: " + e.getMessage(), e);
            }
            int used = before - inflater.getRemaining();
            if (used > 0) {
                listener.deflated(in.buffer(), in.position(), used);
                in.skip(used);
            }
            if (n > 0) {
                crc.update(out, 0, n);
                produced += n;
                listener.inflated(out, 0, n);
            } else if (used == 0 && inflater.needsDictionary()) {
                throw new LayerFormatException("gzip member at offset " + start + " needs a preset dictionary, which gzip does not allow");
            }
        }
        byte[] trailer = new byte[8];
        for (int i = 0; i < trailer.length; i++) {
            int b = in.read();
            if (b < 0) {
                throw new LayerFormatException("gzip member at offset " + start + " is truncated inside its trailer");
            }
            trailer[i] = (byte) b;
        }
        long storedCrc = littleEndian(trailer, 0);
        long storedSize = littleEndian(trailer, 4);
        if (storedCrc != crc.getValue()) {
            throw new LayerFormatException(String.format("gzip member at offset %d has a bad CRC32: trailer says %08x, data gives %08x",
                    start, storedCrc, crc.getValue()));
        }
        if (storedSize != (produced & 0xffffffffL)) {
            throw new LayerFormatException("gzip member at offset " + start + " has a bad ISIZE: trailer says " + storedSize + ", data gives "
                    + produced + " bytes");
        }
        return new End(trailer, produced);
    }

    public void close() {
        inflater.end();
    }

    private static long littleEndian(byte[] b, int off) {
        return (b[off] & 0xffL) | (b[off + 1] & 0xffL) << 8 | (b[off + 2] & 0xffL) << 16 | (b[off + 3] & 0xffL) << 24;
    }
}
