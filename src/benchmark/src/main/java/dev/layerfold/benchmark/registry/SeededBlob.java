package dev.layerfold.benchmark.registry;

import dev.layerfold.e2e.blob.GeneratedContent;
import dev.layerfold.e2e.blob.Sha256;
import java.io.IOException;
import java.io.InputStream;

/**
 * A generated blob known by its seed, size and digest. The digest is computed once, before anything
 * is timed, so pushes measure the registry and not the client hashing.
 */
record SeededBlob(long seed, long size, String digest) {

    static SeededBlob generate(long seed, long size) throws IOException {
        return new SeededBlob(seed, size, Sha256.of(content(seed, size)));
    }

    InputStream content() {
        return content(seed, size);
    }

    private static InputStream content(long seed, long size) {
        return new GeneratedContent(seed, size);
    }
}
