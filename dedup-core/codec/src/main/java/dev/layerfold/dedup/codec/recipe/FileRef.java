package dev.layerfold.dedup.codec.recipe;

import java.util.HexFormat;

/**
 * A file body by content: its sha256 (64 lowercase hex digits) and size in bytes. The recipe holds
 * these in place of the bodies; the store keeps each distinct body once.
 */
public record FileRef(String sha256, long size) {

    private static final HexFormat HEX = HexFormat.of();

    public FileRef {
        if (sha256 == null || sha256.length() != 64 || !isLowerHex(sha256)) {
            throw new IllegalArgumentException("sha256 must be 64 lowercase hex digits, got " + sha256);
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative, got " + size);
        }
    }

    public static FileRef of(byte[] sha256, long size) {
        if (sha256.length != 32) {
            throw new IllegalArgumentException("a sha256 has 32 bytes, got " + sha256.length);
        }
        return new FileRef(HEX.formatHex(sha256), size);
    }

    public byte[] sha256Bytes() {
        return HEX.parseHex(sha256);
    }

    /** A loop, not a stream: a restore makes one per file, twice. */
    private static boolean isLowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
