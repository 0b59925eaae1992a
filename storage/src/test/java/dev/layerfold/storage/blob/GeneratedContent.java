package dev.layerfold.storage.blob;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * Pseudo-random bytes computed from their position, so tests can stream, hash and spot-check blobs
 * far larger than they could afford to hold in a byte array.
 */
public record GeneratedContent(long size, long seed) {

    /** The byte at {@code position}: one 64-bit mix per 8-byte block, cheap and random-looking. */
    public byte byteAt(long position) {
        long block = mix(seed + (position >>> 3));
        return (byte) (block >>> ((position & 7) * 8));
    }

    public byte[] slice(long offset, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = byteAt(offset + i);
        }
        return bytes;
    }

    /** The bytes {@code [from, to)} as a stream. */
    public InputStream stream(long from, long to) {
        return new InputStream() {
            private long position = from;

            @Override
            public int read() {
                return position < to ? byteAt(position++) & 0xff : -1;
            }

            @Override
            public int read(byte[] buffer, int off, int len) {
                Objects.checkFromIndexSize(off, len, buffer.length);
                if (position >= to) {
                    return -1;
                }
                int count = (int) Math.min(len, to - position);
                for (int i = 0; i < count; i++) {
                    buffer[off + i] = byteAt(position++);
                }
                return count;
            }
        };
    }

    public Digest sha256() {
        try (InputStream in = stream(0, size)) {
            return sha256Of(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Hashes a stream without holding it; also the way tests read back large blobs. */
    public static Digest sha256Of(InputStream in) throws IOException {
        MessageDigest sha256 = Digest.Algorithm.SHA256.newMessageDigest();
        byte[] buffer = new byte[64 * 1024];
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            sha256.update(buffer, 0, read);
        }
        return Digest.fromBytes(Digest.Algorithm.SHA256, sha256.digest());
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
