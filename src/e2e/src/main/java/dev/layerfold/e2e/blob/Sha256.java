package dev.layerfold.e2e.blob;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in the distribution API's digest form, {@code sha256:<64 hex>}. */
public final class Sha256 {

    private static final int BUFFER_SIZE = 256 * 1024;

    private Sha256() {
    }

    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The digest string of what {@code digest} has consumed so far (and resets it). */
    public static String format(MessageDigest digest) {
        return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }

    public static String of(byte[] bytes) {
        MessageDigest digest = newDigest();
        digest.update(bytes);
        return format(digest);
    }

    /** Reads {@code in} to its end and returns the digest of what it held; does not close it. */
    public static String of(InputStream in) throws IOException {
        MessageDigest digest = newDigest();
        byte[] buffer = new byte[BUFFER_SIZE];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            digest.update(buffer, 0, n);
        }
        return format(digest);
    }
}
