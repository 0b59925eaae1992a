package dev.layerfold.dedup.codec.zstd.encoder;

import java.io.IOException;

/**
 * A zstd encoder that reproduces one real implementation's output byte for byte: given a frame's
 * content and the same settings, it writes exactly the frame that implementation wrote, header and
 * checksum included. Output goes to the sink as soon as the reproduced implementation would have
 * emitted it, so a wrong candidate is rejected at its first block; how input is split across
 * {@link #write} calls never changes it. Holds native memory until {@link #finish} or
 * {@link #close}. Not thread-safe.
 */
public interface ZstdEncoder extends AutoCloseable {

    void write(byte[] data, int offset, int length) throws IOException;

    /** Writes whatever the encoder has produced so far without changing its output (a multi-threaded one waits for its running job). */
    void drain() throws IOException;

    /** Ends the frame. No call but {@link #close} may follow. */
    void finish() throws IOException;

    /** Frees the encoder's native memory; idempotent. */
    @Override
    void close();
}
