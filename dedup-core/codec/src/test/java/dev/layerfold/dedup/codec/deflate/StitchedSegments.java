package dev.layerfold.dedup.codec.deflate;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/** Segments of a deflate stream that end at any bit, stitched back into the stream as a restore joins them. */
public final class StitchedSegments {

    private StitchedSegments() {
    }

    /** Concatenates {@code segments} (each starting at the bit {@code startBits} gives), OR-ing the byte two of them share. */
    public static byte[] merge(List<byte[]> segments, List<Long> startBits) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] last = new byte[0];
        for (int i = 0; i < segments.size(); i++) {
            byte[] bytes = segments.get(i).clone();
            if (startBits.get(i) % 8 != 0) {
                last[last.length - 1] |= bytes[0];
                bytes = Arrays.copyOfRange(bytes, 1, bytes.length);
            }
            out.writeBytes(last);
            last = bytes;
        }
        out.writeBytes(last);
        return out.toByteArray();
    }
}
