package dev.layerfold.dedup.codec.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Passes bytes through while computing their sha256 and count, to check the rebuilt blob (or a piece of it). */
public final class VerifyingOutput extends FilterOutputStream {

    private final MessageDigest sha256;
    private long size;

    public VerifyingOutput(OutputStream out) {
        super(out);
        try {
            this.sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    @Override
    public void write(int b) throws IOException {
        sha256.update((byte) b);
        size++;
        out.write(b);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        sha256.update(data, offset, length);
        size += length;
        out.write(data, offset, length);
    }

    public String sha256Hex() {
        return HexFormat.of().formatHex(sha256.digest());
    }

    /** The sha256 of the bytes since the last call (or the start); the count goes on. */
    public byte[] sha256SinceLast() {
        return sha256.digest();
    }

    /** Bytes passed through since the start. */
    public long size() {
        return size;
    }

    /** Does not close the caller's stream: the rebuilder writes to it, the caller owns it. */
    @Override
    public void close() throws IOException {
        flush();
    }
}
