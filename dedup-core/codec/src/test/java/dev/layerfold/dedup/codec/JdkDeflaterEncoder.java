package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;

/**
 * Test-only stand-in encoder over the JVM's own zlib: it makes gzip layers that the codec can
 * identify and rebuild in tests that are about framing and tar structure, not encoder fidelity.
 * Never part of production identification (its output depends on the JVM's native zlib).
 */
final class JdkDeflaterEncoder implements DeflateEncoder {

    static final String FAMILY = "jdk-test";

    private final Deflater deflater;
    private final OutputStream sink;
    private final byte[] buffer = new byte[8192];

    JdkDeflaterEncoder(OutputStream sink, int level) {
        this.deflater = new Deflater(level, true);
        this.sink = sink;
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        deflater.setInput(data, offset, length);
        while (!deflater.needsInput()) {
            drain();
        }
    }

    @Override
    public void finish() throws IOException {
        deflater.finish();
        while (!deflater.finished()) {
            drain();
        }
        deflater.end();
    }

    private void drain() throws IOException {
        int n = deflater.deflate(buffer);
        sink.write(buffer, 0, n);
    }
}
