package dev.layerfold.dedup.codec.io;

import java.io.IOException;

/**
 * A layer could not be rebuilt exactly: its recipe names no encoder for a member, a file body is
 * missing or has the wrong size, or the bytes written do not have the recipe's sha256. Whatever was
 * already written to the output must be discarded.
 */
public class LayerRebuildException extends IOException {

    public LayerRebuildException(String message) {
        super(message);
    }

    public LayerRebuildException(String message, Throwable cause) {
        super(message, cause);
    }
}
