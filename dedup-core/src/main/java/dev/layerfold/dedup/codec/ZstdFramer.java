package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.ZstdEncoder;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Takes the rebuilt tar stream and writes the zstd frames it is cut into: each compressed frame by
 * its encoder from its share of the tar bytes, each skippable frame verbatim where it stood.
 */
final class ZstdFramer extends OutputStream {

    private final List<ZstdFrame> frames;
    private final ZstdEncoders encoders;
    private final OutputStream out;
    private int frame = -1;
    private long remaining;
    private ZstdEncoder encoder;

    ZstdFramer(List<ZstdFrame> frames, ZstdEncoders encoders, OutputStream out) {
        this.frames = frames;
        this.encoders = encoders;
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            while (remaining == 0) {
                closeFrame();
                if (!openNextFrame()) {
                    throw new LayerRebuildException("the tar skeleton holds more bytes than the zstd frames");
                }
            }
            int n = (int) Math.min(length, remaining);
            encoder.write(data, offset, n);
            remaining -= n;
            offset += n;
            length -= n;
        }
    }

    /** Ends the open frame and writes the frames left, which must hold no content. */
    void finish() throws IOException {
        do {
            if (remaining > 0) {
                throw new LayerRebuildException("the tar skeleton ends " + remaining + " bytes short of zstd frame " + frame + "'s content");
            }
            closeFrame();
        } while (openNextFrame());
    }

    /** Frees the frame encoder under way, after a failure. */
    void abort() {
        if (encoder != null) {
            encoder.close();
        }
    }

    private void closeFrame() throws IOException {
        if (encoder != null) {
            encoder.finish();
            encoder = null;
        }
    }

    /** Opens the next frame (writing skippable ones on the way); false if there is none. */
    private boolean openNextFrame() throws IOException {
        while (frame + 1 < frames.size()) {
            frame++;
            switch (frames.get(frame)) {
                case ZstdFrame.Skippable skippable -> out.write(skippable.frame());
                case ZstdFrame.Compressed compressed -> {
                    encoder = encoders.create(compressed.encoder(), compressed.contentSize(), out);
                    remaining = compressed.contentSize();
                    return true;
                }
            }
        }
        return false;
    }
}
