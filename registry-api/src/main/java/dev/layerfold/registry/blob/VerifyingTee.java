package dev.layerfold.registry.blob;

import dev.layerfold.registry.proxy.Upstream;
import dev.layerfold.registry.proxy.UpstreamException;
import dev.layerfold.storage.Digest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;

/**
 * An upstream's blob body as it is read into storage, hashed on the way and copied to the client that
 * asked for it. The client gets every byte but the last one as soon as it arrives; the last byte is held
 * back until the whole body was found to have the expected digest and length ({@link #release}).
 * A wrong or short body thus fails the read (so storage keeps nothing), and the client,
 * whose response then ends short of its Content-Length, never gets a complete wrong blob.
 *
 * <p>A client that goes away does not stop the fetch: the blob is still stored for the next one.
 */
final class VerifyingTee extends FilterInputStream {

    private final Upstream upstream;
    private final Digest expected;
    private final long expectedLength;
    private final MessageDigest hash;
    private final OutputStream client;
    private boolean clientGone;
    private final byte[] held = new byte[1];
    private boolean holding;
    private long count;
    private boolean verified;

    /** @param expectedLength the upstream's Content-Length, or -1 if it sent none */
    VerifyingTee(InputStream body, Upstream upstream, Digest expected, long expectedLength, OutputStream client) {
        super(body);
        this.upstream = upstream;
        this.expected = expected;
        this.expectedLength = expectedLength;
        this.hash = expected.algorithm().newMessageDigest();
        this.client = client;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int read = super.read(buffer, offset, length);
        if (read < 0) {
            verify();
            return -1;
        }
        if (read == 0) {
            return 0;
        }
        count += read;
        if (expectedLength >= 0 && count > expectedLength) {
            throw upstream.failure(UpstreamException.Reason.TRUNCATED, "sent more than the " + expectedLength
                    + " bytes it announced for " + expected);
        }
        hash.update(buffer, offset, read);
        // Only the last byte read is held back: copying whole pieces aside would cost a copy of every byte.
        if (holding) {
            toClient(held, 0, 1);
        }
        toClient(buffer, offset, read - 1);
        held[0] = buffer[offset + read - 1];
        holding = true;
        return read;
    }

    @Override
    public long skip(long n) {
        return 0; // every byte must be hashed and sent
    }

    private void verify() throws UpstreamException {
        if (verified) {
            return;
        }
        if (expectedLength >= 0 && count != expectedLength) {
            throw upstream.failure(UpstreamException.Reason.TRUNCATED, "sent " + count + " of the " + expectedLength
                    + " bytes of " + expected);
        }
        Digest actual = Digest.fromBytes(expected.algorithm(), hash.digest());
        if (!actual.equals(expected)) {
            throw upstream.failure(UpstreamException.Reason.DIGEST_MISMATCH, "sent bytes with digest " + actual
                    + " for " + expected + "; they were discarded");
        }
        verified = true;
    }

    /** Whether the whole body was read and matched its digest. */
    boolean verified() {
        return verified;
    }

    /** Sends the byte held back, once the body is verified. */
    void release() throws IOException {
        if (!verified) {
            throw new IllegalStateException("the body of " + expected + " was not verified");
        }
        if (holding) {
            toClient(held, 0, 1);
            holding = false;
        }
        if (!clientGone) {
            try {
                client.flush();
            } catch (IOException e) {
                clientGone = true;
            }
        }
    }

    private void toClient(byte[] bytes, int offset, int length) {
        if (clientGone || length == 0) {
            return;
        }
        try {
            client.write(bytes, offset, length);
        } catch (IOException e) {
            clientGone = true;
        }
    }
}
