package dev.layerfold.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The content a replay pushes for a blob of a trace: the traces anonymize digests, so each blob gets
 * bytes of its recorded size (scaled), drawn from a seed of its trace digest, and is addressed by their
 * real digest. Incompressible, as gzip'd layers are.
 */
record BlobBytes(byte[] bytes, String digest) {

    static BlobBytes of(String traceBlob, long size) {
        byte[] bytes = new byte[Math.toIntExact(size)];
        new SplittableRandom(traceBlob.hashCode() * 31L + size).nextBytes(bytes);
        return new BlobBytes(bytes, sha256(bytes));
    }

    static BlobBytes text(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new BlobBytes(bytes, sha256(bytes));
    }

    static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
