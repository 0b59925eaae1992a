package dev.layerfold.storage;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A content digest as the OCI image spec writes it: {@code algorithm:encoded}.
 *
 * <p>Only the algorithms the distribution spec requires registries to understand are accepted
 * (sha256, sha512), with lower-case hex of the exact length, so a digest that parses can be used
 * as a storage key without further escaping.
 */
public record Digest(Algorithm algorithm, String hex) implements Comparable<Digest> {

    /** Digest algorithms this registry verifies. */
    public enum Algorithm {
        SHA256("sha256", "SHA-256", 64),
        SHA512("sha512", "SHA-512", 128);

        private final String prefix;
        private final String jcaName;
        private final int hexLength;

        Algorithm(String prefix, String jcaName, int hexLength) {
            this.prefix = prefix;
            this.jcaName = jcaName;
            this.hexLength = hexLength;
        }

        /** The name used inside digest strings, e.g. {@code sha256}. */
        public String prefix() {
            return prefix;
        }

        public MessageDigest newMessageDigest() {
            try {
                return MessageDigest.getInstance(jcaName);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(jcaName + " is required by every Java runtime", e);
            }
        }
    }

    private static final Pattern GRAMMAR = Pattern.compile("[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+");

    public Digest {
        if (algorithm == null || hex == null || hex.length() != algorithm.hexLength || !isLowerHex(hex)) {
            throw new InvalidDigestException(algorithm == null ? String.valueOf(hex) : algorithm.prefix + ":" + hex,
                    "expected " + (algorithm == null ? "an algorithm" : algorithm.hexLength + " lower-case hex characters"));
        }
    }

    /**
     * Parses {@code sha256:<64 hex>} or {@code sha512:<128 hex>}.
     *
     * @throws InvalidDigestException with a message saying what is wrong, for anything else
     *     (including well-formed digests of algorithms this registry does not support)
     */
    public static Digest parse(String text) {
        for (Algorithm algorithm : Algorithm.values()) {
            // What the stores hold and clients mostly send needs no regular expression: the index parses one per file.
            int hexStart = algorithm.prefix.length() + 1;
            if (text != null && text.length() == hexStart + algorithm.hexLength && text.startsWith(algorithm.prefix)
                    && text.charAt(hexStart - 1) == ':' && isLowerHex(text, hexStart)) {
                return new Digest(algorithm, text.substring(hexStart));
            }
        }
        if (text == null || !GRAMMAR.matcher(text).matches()) {
            throw new InvalidDigestException(text, "expected algorithm:hex, such as sha256:<64 hex characters>");
        }
        int colon = text.indexOf(':');
        String prefix = text.substring(0, colon);
        for (Algorithm algorithm : Algorithm.values()) {
            if (algorithm.prefix.equals(prefix)) {
                return new Digest(algorithm, text.substring(colon + 1));
            }
        }
        throw new InvalidDigestException(text, "unsupported algorithm '" + prefix + "'; use sha256 or sha512");
    }

    /** The digest of bytes held in memory (manifests, small test data); blobs are hashed as they stream. */
    public static Digest of(Algorithm algorithm, byte[] bytes) {
        return fromBytes(algorithm, algorithm.newMessageDigest().digest(bytes));
    }

    /** The digest of everything {@code in} yields, read a buffer at a time. */
    public static Digest of(Algorithm algorithm, InputStream in) throws IOException {
        MessageDigest digest = algorithm.newMessageDigest();
        byte[] buffer = new byte[256 * 1024];
        for (int read; (read = in.read(buffer)) >= 0; ) {
            digest.update(buffer, 0, read);
        }
        return fromBytes(algorithm, digest.digest());
    }

    public static Digest sha256(byte[] bytes) {
        return of(Algorithm.SHA256, bytes);
    }

    /** Wraps the output of {@link MessageDigest#digest()} for the given algorithm. */
    public static Digest fromBytes(Algorithm algorithm, byte[] digestBytes) {
        return new Digest(algorithm, HexFormat.of().formatHex(digestBytes));
    }

    private static boolean isLowerHex(String s) {
        return isLowerHex(s, 0);
    }

    private static boolean isLowerHex(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int compareTo(Digest other) {
        return toString().compareTo(other.toString());
    }

    @Override
    public String toString() {
        return algorithm.prefix + ":" + hex;
    }
}
