package dev.layerfold.dedup.codec;

import dev.layerfold.dedup.codec.recipe.FileRef;
import java.io.IOException;
import java.io.InputStream;

/**
 * Gives the rebuilder a file body by reference. The rebuilder asks for bodies in recipe order and
 * reads each to its end before asking for the next, so an implementation may fetch ahead.
 */
@FunctionalInterface
public interface FileContentSource {

    /** Opens the body named by {@code ref}; the caller closes the stream. */
    InputStream open(FileRef ref) throws IOException;
}
