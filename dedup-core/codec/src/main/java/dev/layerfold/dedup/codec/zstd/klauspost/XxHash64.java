package dev.layerfold.dedup.codec.zstd.klauspost;

/**
 * Streaming XXH64 with seed 0: a zstd frame's content checksum is its low 32 bits, little-endian.
 * No library the project depends on offers XXH64, and the algorithm is short.
 */
public final class XxHash64 {

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private long v1 = P1 + P2;
    private long v2 = P2;
    private long v3 = 0;
    private long v4 = -P1;
    private long total;
    private final byte[] pending = new byte[32];
    private int pendingLength;

    public void update(byte[] data, int offset, int length) {
        total += length;
        if (pendingLength > 0) {
            int n = Math.min(length, 32 - pendingLength);
            System.arraycopy(data, offset, pending, pendingLength, n);
            pendingLength += n;
            offset += n;
            length -= n;
            if (pendingLength < 32) {
                return;
            }
            stripe(pending, 0);
            pendingLength = 0;
        }
        while (length >= 32) {
            stripe(data, offset);
            offset += 32;
            length -= 32;
        }
        System.arraycopy(data, offset, pending, 0, length);
        pendingLength = length;
    }

    private void stripe(byte[] data, int at) {
        v1 = round(v1, Bytes.load64(data, at));
        v2 = round(v2, Bytes.load64(data, at + 8));
        v3 = round(v3, Bytes.load64(data, at + 16));
        v4 = round(v4, Bytes.load64(data, at + 24));
    }

    /** A zstd frame's checksum of what was hashed: the digest's low 32 bits, little-endian. */
    public byte[] frameChecksum() {
        long digest = digest();
        return new byte[] {(byte) digest, (byte) (digest >>> 8), (byte) (digest >>> 16), (byte) (digest >>> 24)};
    }

    public long digest() {
        long h;
        if (total >= 32) {
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = P5;
        }
        h += total;
        int i = 0;
        for (; i + 8 <= pendingLength; i += 8) {
            h ^= round(0, Bytes.load64(pending, i));
            h = Long.rotateLeft(h, 27) * P1 + P4;
        }
        if (i + 4 <= pendingLength) {
            h ^= (Bytes.load32(pending, i) & 0xFFFFFFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            i += 4;
        }
        for (; i < pendingLength; i++) {
            h ^= (pending[i] & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long merge(long h, long v) {
        h ^= round(0, v);
        return h * P1 + P4;
    }
}
