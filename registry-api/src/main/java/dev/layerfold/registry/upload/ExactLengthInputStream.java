package dev.layerfold.registry.upload;

import dev.layerfold.registry.error.RequestBodyException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A chunk body that must hold exactly the bytes its {@code Content-Range} announced. Failing the
 * read (rather than checking afterwards) makes the store discard the partial append.
 */
final class ExactLengthInputStream extends FilterInputStream {

    private final long expected;
    private long remaining;

    ExactLengthInputStream(InputStream in, long expected) {
        super(in);
        this.expected = expected;
        this.remaining = expected;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        // Reads one byte past the announced end, to notice a body that is longer than announced.
        int read = super.read(buffer, offset, (int) Math.min(length, remaining + 1));
        if (read < 0) {
            if (remaining > 0) {
                throw RequestBodyException.wrongLength("the body holds " + (expected - remaining)
                        + " bytes but its Content-Range announced " + expected);
            }
            return -1;
        }
        if (read > remaining) {
            throw RequestBodyException.wrongLength("the body is longer than the " + expected
                    + " bytes its Content-Range announced");
        }
        remaining -= read;
        return read;
    }

    @Override
    public long skip(long n) {
        return 0;
    }
}
