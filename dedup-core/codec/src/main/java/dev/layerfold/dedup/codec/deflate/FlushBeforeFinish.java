package dev.layerfold.dedup.codec.deflate;

import java.io.IOException;
import java.util.Objects;

/**
 * An encoder whose producer sync-flushes the stream right before closing it, so that it ends in an
 * empty stored block and then the final one. eStargz writes every member but its table of contents
 * and footer this way: stargz-snapshotter's estargz flushes its gzip writer to learn the compressed
 * offset of the next file, then closes the member.
 */
public final class FlushBeforeFinish implements DeflateEncoder {

    private final SyncFlushEncoder encoder;

    public FlushBeforeFinish(SyncFlushEncoder encoder) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        encoder.write(data, offset, length);
    }

    @Override
    public void finish() throws IOException {
        encoder.flush();
        encoder.finish();
    }

    @Override
    public boolean observeTokens(TokenObserver observer) {
        return encoder.observeTokens(observer);
    }
}
