package dev.layerfold.registry.upload;

import dev.layerfold.storage.Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;

/**
 * A SHA-256 whose state can be saved with the upload and continued by another process. About half as
 * fast as {@link JdkHash}, so it is used only where the store cannot read an unfinished upload back.
 */
final class ResumableSha256 implements RunningHash {

    private final SHA256Digest digest;

    ResumableSha256() {
        this(new SHA256Digest());
    }

    private ResumableSha256(SHA256Digest digest) {
        this.digest = digest;
    }

    /**
     * Continues from a state saved by {@link #encodedState()}.
     *
     * @throws IllegalArgumentException if {@code encodedState} is not such a state
     */
    static ResumableSha256 restore(byte[] encodedState) {
        try {
            return new ResumableSha256(new SHA256Digest(encodedState));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a saved SHA-256 state (" + encodedState.length + " bytes)", e);
        }
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        digest.update(bytes, offset, length);
    }

    @Override
    public RunningHash copy() {
        return new ResumableSha256(new SHA256Digest(digest));
    }

    @Override
    public byte[] encodedState() {
        return digest.getEncodedState();
    }

    @Override
    public Digest finish() {
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return Digest.fromBytes(Digest.Algorithm.SHA256, out);
    }
}
