package dev.layerfold.storage.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The bytes of one multipart part being gathered from a request body. It starts with the upload's
 * tail and grows on demand up to the part size, so a small append (a manifest, a config) does not
 * allocate a whole part.
 */
final class PartBuffer {

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final int partSize;
    private byte[] bytes;
    private int length;

    PartBuffer(byte[] tail, int partSize) {
        this.partSize = partSize;
        this.bytes = Arrays.copyOf(tail, Math.min(partSize, Math.max(INITIAL_CAPACITY, tail.length)));
        this.length = tail.length;
    }

    /**
     * An empty part for the bytes that follow a full one in the same request, which a large blob is
     * still sending: it starts at the whole part size rather than growing (and copying) its way there.
     */
    static PartBuffer whole(int partSize) {
        return new PartBuffer(partSize);
    }

    private PartBuffer(int partSize) {
        this.partSize = partSize;
        this.bytes = new byte[partSize];
    }

    /** Empties the part for reuse once its upload is done: a fresh array of several MiB costs its zeroing. */
    PartBuffer clear() {
        length = 0;
        return this;
    }

    /** Reads until the part is full (true) or the stream ends (false). */
    boolean fillFrom(InputStream in) throws IOException {
        while (length < partSize) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(partSize, 2L * bytes.length));
            }
            int read = in.read(bytes, length, bytes.length - length);
            if (read < 0) {
                return false;
            }
            length += read;
        }
        return true;
    }

    int length() {
        return length;
    }

    /** The gathered bytes without copying them; re-readable, so the SDK can retry a failed request. */
    InputStream stream() {
        return new ByteArrayInputStream(bytes, 0, length);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }
}
