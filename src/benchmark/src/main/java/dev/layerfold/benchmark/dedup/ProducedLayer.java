package dev.layerfold.benchmark.dedup;

import dev.layerfold.storage.Digest;
import dev.layerfold.storage.dedup.LayerTask;

/**
 * A layer blob as a producer wrote it, with the tar inside it (what a rebuild's encoder runs over).
 *
 * @param name     what the output calls it
 * @param producer who compressed it
 * @param blob     the compressed tar, as pushed
 * @param tar      the uncompressed tar
 */
public record ProducedLayer(String name, Producer producer, byte[] blob, byte[] tar, Digest digest) {

    ProducedLayer(String name, Producer producer, byte[] blob, byte[] tar) {
        this(name, producer, blob, tar, Digest.sha256(blob));
    }

    /** The dedup task a manifest naming this layer queues. */
    LayerTask task() {
        return new LayerTask(digest, producer.mediaType(), blob.length);
    }

    double tarMegabytes() {
        return tar.length / 1e6;
    }

    @Override
    public String toString() {
        return String.format("%s: %.1f MB tar, %.1f MB compressed by %s", name, tar.length / 1e6, blob.length / 1e6, producer.description);
    }
}
