package dev.layerfold.dedup.codec.identify;

import dev.layerfold.dedup.codec.deflate.DeflateEncoder;
import dev.layerfold.dedup.codec.deflate.SyncFlushEncoder;
import dev.layerfold.dedup.codec.recipe.EncoderSpec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One candidate encoder fed the member's decompressed bytes, its output checked against the
 * original deflate bytes as it is written. Output beyond what has been read of the original
 * waits until the original catches up. The first differing byte rejects the candidate, by an
 * exception thrown out of the encoder's own write, so it does no further work.
 */
final class CandidateRun extends OutputStream {

    /** Thrown into the encoder to stop it at its first wrong byte; carries no stack trace. */
    static final class Rejected extends IOException {
        Rejected() {
            super("candidate output differs from the original");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private final EncoderSpec spec;
    private final OriginalWindow original;
    private final DeflateEncoder encoder;
    private final ByteArrayOutputStream ahead = new ByteArrayOutputStream();
    private long matched;
    private boolean rejected;

    CandidateRun(EncoderSpec spec, EncoderFactory factory, OriginalWindow original) {
        this.spec = spec;
        this.original = original;
        this.encoder = factory.create(spec, this);
    }

    EncoderSpec spec() {
        return spec;
    }

    boolean alive() {
        return !rejected;
    }

    /** Stream position up to which this candidate's output equals the original. */
    long matched() {
        return matched;
    }

    /** True if the candidate has written exactly the original so far, nothing more. */
    boolean caughtUp() {
        return !rejected && ahead.size() == 0 && matched == original.end();
    }

    /** Checks the encoder's tokens against the original's first block, if it reports them. */
    void checkTokens(int[] firstBlockTokens) {
        encoder.observeTokens(new FirstTokens(firstBlockTokens));
    }

    void feed(byte[] data, int offset, int length) {
        if (!rejected) {
            runGuarded(() -> encoder.write(data, offset, length));
        }
    }

    /** Ends the stream, sync-flushing it first if {@code flushFirst} (the encoder then must support that). */
    void finish(boolean flushFirst) {
        if (!rejected) {
            runGuarded(() -> {
                if (flushFirst) {
                    ((SyncFlushEncoder) encoder).flush();
                }
                encoder.finish();
            });
        }
    }

    /** More original bytes arrived: check output that was written ahead of them. */
    void originalGrew() {
        if (rejected || ahead.size() == 0) {
            return;
        }
        byte[] pending = ahead.toByteArray();
        ahead.reset();
        try {
            write(pending, 0, pending.length);
        } catch (IOException e) {
            rejected = true;
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        if (rejected) {
            throw new Rejected();
        }
        int checkable = ahead.size() > 0 ? 0 : (int) Math.min(length, original.end() - matched);
        if (checkable > 0) {
            if (!original.matches(matched, data, offset, checkable)) {
                rejected = true;
                throw new Rejected();
            }
            matched += checkable;
        }
        ahead.write(data, offset + checkable, length - checkable);
    }

    private interface EncoderCall {
        void run() throws IOException;
    }

    private void runGuarded(EncoderCall call) {
        try {
            call.run();
        } catch (IOException | RuntimeException e) {
            // Rejected at a wrong byte, or failed on this input: either way not the original encoder.
            rejected = true;
        }
    }
}
