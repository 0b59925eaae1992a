package dev.layerfold.predictor;

import dev.layerfold.predictor.tier.LayerTier;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A blob's bytes on their way to a client: stops the serve timer when closed and, when given a fill,
 * copies what passes into a tier. The copy is verified and kept in the background once the client
 * read it all, so the client never waits for it; a copy that fails is dropped, never the response.
 */
final class ServedStream extends FilterInputStream {

    private final Runnable onClose;
    private final Executor background;
    private Optional<LayerTier.Fill> fill;
    private boolean closed;

    ServedStream(InputStream in, Runnable onClose, Optional<LayerTier.Fill> fill, Executor background) {
        super(in);
        this.onClose = onClose;
        this.fill = fill;
        this.background = background;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int read = in.read(buffer, offset, length);
        if (read < 0) {
            complete();
        } else if (fill.isPresent()) {
            try {
                fill.get().output().write(buffer, offset, read);
            } catch (IOException e) {
                abandon();
            }
        }
        return read;
    }

    @Override
    public long skip(long n) throws IOException {
        abandon(); // the copy would miss what is skipped
        return in.skip(n);
    }

    private void complete() {
        if (fill.isEmpty()) {
            return;
        }
        LayerTier.Fill whole = fill.get();
        fill = Optional.empty();
        try {
            background.execute(() -> {
                try {
                    whole.complete();
                } catch (IOException | RuntimeException e) {
                    whole.abandon();
                }
            });
        } catch (RejectedExecutionException busy) {
            whole.abandon();
        }
    }

    private void abandon() {
        fill.ifPresent(LayerTier.Fill::abandon);
        fill = Optional.empty();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        abandon(); // a client that stopped early leaves an incomplete copy
        try {
            super.close();
        } finally {
            onClose.run();
        }
    }
}
