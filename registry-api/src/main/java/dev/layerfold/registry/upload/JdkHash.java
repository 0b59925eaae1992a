package dev.layerfold.registry.upload;

import dev.layerfold.storage.Digest;
import java.security.MessageDigest;

/**
 * The JDK's digest, which uses the CPU's SHA instructions: the fastest, but its state lives only in this
 * process's memory.
 */
final class JdkHash implements RunningHash {

    private final Digest.Algorithm algorithm;
    private final MessageDigest digest;

    JdkHash(Digest.Algorithm algorithm) {
        this(algorithm, algorithm.newMessageDigest());
    }

    private JdkHash(Digest.Algorithm algorithm, MessageDigest digest) {
        this.algorithm = algorithm;
        this.digest = digest;
    }

    @Override
    public Digest.Algorithm algorithm() {
        return algorithm;
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        digest.update(bytes, offset, length);
    }

    @Override
    public RunningHash copy() {
        try {
            return new JdkHash(algorithm, (MessageDigest) digest.clone());
        } catch (CloneNotSupportedException e) {
            // The JDK's own SHA-2 implementations are cloneable; only a foreign provider could refuse.
            throw new IllegalStateException(algorithm + " digest of provider " + digest.getProvider() + " cannot be copied", e);
        }
    }

    @Override
    public byte[] encodedState() {
        return new byte[0];
    }

    @Override
    public Digest finish() {
        return Digest.fromBytes(algorithm, digest.digest());
    }
}
