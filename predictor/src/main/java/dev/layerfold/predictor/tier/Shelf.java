package dev.layerfold.predictor.tier;

import dev.layerfold.storage.Digest;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/** Where a tier keeps whole layers: the heap or a directory. */
interface Shelf {

    /** Starts writing a layer of {@code size} bytes; nothing is visible until {@link Writer#keep()}. */
    Writer writer(Digest digest, long size) throws IOException;

    /** The layers kept from an earlier run (none for memory). */
    Map<Digest, Kept> existing() throws IOException;

    /** A layer being written. Exactly one of {@link #keep()} and {@link #abandon()} ends it. */
    interface Writer {
        OutputStream output();

        /** The bytes written, all of them, verified by the caller: kept from now on. */
        Kept keep() throws IOException;

        void abandon();
    }
}
