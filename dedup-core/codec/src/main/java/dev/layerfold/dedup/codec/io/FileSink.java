package dev.layerfold.dedup.codec.io;

import dev.layerfold.dedup.codec.recipe.FileRef;
import java.io.IOException;

/**
 * Where the splitter streams file bodies. The sink decides what to keep (typically: store a body
 * whose sha256 it does not know yet); bodies are never held in memory by the splitter.
 *
 * <p>For each body the splitter calls {@link #begin}, then {@link Body#write} any number of
 * times, then exactly one of {@link Body#complete} (with the body's digest and size) or
 * {@link Body#abort} (the split failed; the bytes written so far are not a whole body).
 */
public interface FileSink {

    /**
     * A body starts.
     *
     * @param declaredSize the size its tar header declares, so a sink can route small and large
     *                     bodies differently; -1 where the splitter cannot know it (the opaque rest of a
     *                     damaged tar). The body may end shorter (a truncated archive), never longer.
     */
    Body begin(long declaredSize) throws IOException;

    interface Body {

        void write(byte[] data, int offset, int length) throws IOException;

        /** The body ended; {@code ref} names the bytes written. */
        void complete(FileRef ref) throws IOException;

        /** The split failed while this body was open; discard what was written. */
        void abort();
    }

    /** A sink that keeps nothing: for inspection, where only the recipe and the counts matter. */
    static FileSink discarding() {
        return declaredSize -> new Body() {
            @Override
            public void write(byte[] data, int offset, int length) {
            }

            @Override
            public void complete(FileRef ref) {
            }

            @Override
            public void abort() {
            }
        };
    }
}
