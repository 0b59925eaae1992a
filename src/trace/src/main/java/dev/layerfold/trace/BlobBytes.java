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

    /** Files in the pool every layer draws from (72 MB of text): a replay of 100 MB of tar repeats about half its file bytes. */
    private static final int POOL_FILES = 1536;
    private static final int FILE_SIZE = 48 * 1024;

    /**
     * A gzip'd tar (the JDK's zlib at level 6, which dedup reproduces) of text files: each of its files
     * is a file of a pool shared by every layer, chosen by a seed of the trace digest, so layers have
     * files in common, as layers of one base or of versions of an image do. About {@code size} bytes
     * compressed (text of 12 letters compresses to about a half).
     */
    static BlobBytes layerOfSharedFiles(String traceBlob, long size) {
        SplittableRandom random = new SplittableRandom(traceBlob.hashCode() * 31L + size);
        java.io.ByteArrayOutputStream blob = new java.io.ByteArrayOutputStream();
        long tarBytes = size * 2;
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(blob, 64 * 1024)) {
            int index = 0;
            for (long written = 0; written < tarBytes; index++) {
                int file = random.nextInt(POOL_FILES);
                byte[] content = poolFile(file, (int) Math.min(FILE_SIZE, Math.max(1, tarBytes - written)));
                gzip.write(tarHeader("f" + index + "-" + file, content.length));
                gzip.write(content);
                gzip.write(new byte[(512 - content.length % 512) % 512]);
                written += 512 + content.length;
            }
            gzip.write(new byte[1024]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        byte[] bytes = blob.toByteArray();
        return new BlobBytes(bytes, sha256(bytes));
    }

    /** The first {@code length} bytes of pool file {@code file}: text drawn from its own seed. */
    private static byte[] poolFile(int file, int length) {
        SplittableRandom random = new SplittableRandom(file * 7919L + 17);
        byte[] content = new byte[length];
        for (int i = 0; i < length; i++) {
            content[i] = (byte) ('a' + random.nextInt(12));
        }
        return content;
    }

    /** A ustar header of a regular file. */
    private static byte[] tarHeader(String name, int size) {
        byte[] header = new byte[512];
        put(header, 0, name);
        put(header, 100, "0000644");
        put(header, 108, "0000000");
        put(header, 116, "0000000");
        put(header, 124, String.format("%011o", size));
        put(header, 136, "00000000000");
        header[156] = '0';
        put(header, 257, "ustar");
        put(header, 263, "00");
        java.util.Arrays.fill(header, 148, 156, (byte) ' ');
        int sum = 0;
        for (byte b : header) {
            sum += b & 0xff;
        }
        put(header, 148, String.format("%06o", sum));
        header[154] = 0;
        header[155] = ' ';
        return header;
    }

    private static void put(byte[] header, int offset, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, header, offset, bytes.length);
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
