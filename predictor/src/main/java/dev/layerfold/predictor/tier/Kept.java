package dev.layerfold.predictor.tier;

import java.io.IOException;
import java.io.InputStream;

/** A whole layer a tier keeps, verified against its digest before it was kept. */
interface Kept {

    long size();

    /**
     * {@code length} bytes from {@code offset} ({@code length < 0}: to the end). Once open, the stream
     * reads on even if the tier drops the layer meanwhile.
     *
     * @throws java.nio.file.NoSuchFileException if the layer was dropped before it could be opened
     */
    InputStream open(long offset, long length) throws IOException;

    /** Frees what the layer holds; readers that opened it already read on. */
    void discard();
}
