package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.io.LayerRebuildException;
import dev.layerfold.dedup.codec.recipe.ZstdFrame;
import dev.layerfold.dedup.codec.zstd.ZstdEncoders;
import dev.layerfold.dedup.codec.zstd.encoder.ZstdEncoder;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Takes the rebuilt tar stream and writes the zstd frames it is cut into: each compressed frame by
 * its encoder from its share of the tar bytes, each skippable frame verbatim where it stood.
 */
final class ZstdFramer extends ContainerFramer {

    /** Makes the encoder of a frame that writes to {@code out}: what encodes it, and how (in segments, proving points). */
    interface FrameEncoders {
        ZstdEncoder create(int index, ZstdFrame.Compressed frame, OutputStream out) throws IOException;
    }

    private final List<ZstdFrame> frames;
    private final FrameEncoders encoders;
    private final OutputStream out;
    private ZstdEncoder encoder;

    ZstdFramer(List<ZstdFrame> frames, FrameEncoders encoders, OutputStream out) {
        super("zstd frames");
        this.frames = frames;
        this.encoders = encoders;
        this.out = out;
    }

    /** The frames' own encoders, the last klauspost one kept for the next frame ({@link ZstdEncoders.Reusing}). */
    static FrameEncoders inOnePiece(ZstdEncoders encoders) {
        ZstdEncoders.Reusing reusing = encoders.reusing();
        return (index, frame, out) -> reusing.create(frame.encoder(), frame.contentSize(), frame.flushPoints(), out);
    }

    /** Frees the frame encoder under way, after a failure. */
    void abort() {
        if (encoder != null) {
            encoder.close();
        }
    }

    @Override
    long open(int index) throws IOException {
        if (index >= frames.size()) {
            return -1;
        }
        return switch (frames.get(index)) {
            case ZstdFrame.Skippable skippable -> {
                out.write(skippable.frame());
                yield 0;
            }
            case ZstdFrame.Compressed compressed -> {
                try {
                    encoder = encoders.create(index, compressed, out);
                } catch (IllegalArgumentException e) {
                    throw new LayerRebuildException("zstd frame " + index + " cannot be rebuilt here: " + e.getMessage());
                }
                yield compressed.contentSize();
            }
        };
    }

    @Override
    void encode(byte[] data, int offset, int length) throws IOException {
        encoder.write(data, offset, length);
    }

    @Override
    void close(int index) throws IOException {
        if (encoder != null) {
            encoder.finish();
            encoder = null;
        }
    }
}
