package dev.layerfold.dedup.codec.deflate.zlib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** Comparisons of raw deflate streams that say where two streams part. */
public final class DeflateAssertions {

    private DeflateAssertions() {
    }

    public static void assertSameStream(byte[] expected, byte[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            int at = Arrays.mismatch(expected, actual);
            fail(what + ": reference wrote " + expected.length + " bytes, port wrote " + actual.length
                    + ", first difference at byte " + at);
        }
    }

    /** The stream is one complete raw deflate stream that inflates to {@code original}. */
    public static void assertInflatesTo(byte[] original, byte[] deflated) {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(original.length + 16);
            byte[] buf = new byte[64 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                    fail("deflate stream is truncated after " + out.size() + " bytes of output");
                }
                out.write(buf, 0, n);
            }
            assertArrayEquals(original, out.toByteArray(), "inflated stream differs from the input");
        } catch (DataFormatException e) {
            fail("not a valid deflate stream: " + e.getMessage());
        } finally {
            inflater.end();
        }
    }
}
