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
final class ZstdFramer extends ContainerFramer {

    private final List<ZstdFrame> frames;
    private final ZstdEncoders.Reusing encoders;
    private final OutputStream out;
    private ZstdEncoder encoder;

    ZstdFramer(List<ZstdFrame> frames, ZstdEncoders encoders, OutputStream out) {
        super("zstd frames");
        this.frames = frames;
        this.encoders = encoders.reusing();
        this.out = out;
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
                    encoder = encoders.create(compressed.encoder(), compressed.contentSize(), compressed.flushPoints(), out);
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
