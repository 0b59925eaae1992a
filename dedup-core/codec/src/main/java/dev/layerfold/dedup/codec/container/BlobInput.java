package dev.layerfold.dedup.codec.container;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The layer blob as read: a buffer the parsers consume from directly (the inflater reads the
 * buffer in place and gives back what it did not use), plus the size and, if asked, the sha256 of
 * every byte read.
 */
public final class BlobInput {

    private final InputStream in;
    private final byte[] buffer;
    private final MessageDigest sha256;
    private int position;
    private int limit;
    private long size;
    private boolean eof;

    /** @param hashing whether to compute the blob's sha256 (skipped when the caller already knows it) */
    public BlobInput(InputStream in, int bufferSize, boolean hashing) {
        this.in = in;
        this.buffer = new byte[bufferSize];
        try {
            this.sha256 = hashing ? MessageDigest.getInstance("SHA-256") : null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Makes at least {@code wanted} bytes available if the blob has them; returns how many are. */
    public int require(int wanted) throws IOException {
        if (wanted > buffer.length) {
            throw new IllegalArgumentException("cannot look " + wanted + " bytes ahead");
        }
        if (limit - position < wanted && position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        while (limit - position < wanted && !eof) {
            int n = in.read(buffer, limit, buffer.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                if (sha256 != null) {
                    sha256.update(buffer, limit, n);
                }
                size += n;
                limit += n;
            }
        }
        return limit - position;
    }

    /** Reads more if nothing is buffered; returns the number of bytes available, 0 only at the end. */
    public int fill() throws IOException {
        return available() > 0 ? available() : require(1);
    }

    public int available() {
        return limit - position;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    public void skip(int count) {
        if (count > available()) {
            throw new IllegalArgumentException("cannot consume " + count + " bytes, " + available() + " buffered");
        }
        position += count;
    }

    /** Reads one byte, or -1 at the end of the blob. */
    public int read() throws IOException {
        if (fill() == 0) {
            return -1;
        }
        return buffer[position++] & 0xff;
    }

    /** Reads the rest of the blob (counted and hashed) without keeping it. */
    public void drain() throws IOException {
        while (fill() > 0) {
            skip(available());
        }
    }

    /** Bytes consumed by the parsers so far: the offset in the blob of the next unread byte. */
    public long offset() {
        return size - available();
    }

    /** The sha256 of the whole blob; only meaningful once it was read to its end. */
    public String sha256Hex() {
        if (sha256 == null) {
            throw new IllegalStateException("this blob input was made without hashing");
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    /** The size of the whole blob; only meaningful once it was read to its end. */
    public long size() {
        return size;
    }
}
