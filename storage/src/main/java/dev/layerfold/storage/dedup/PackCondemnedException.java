package dev.layerfold.storage.dedup;

import dev.layerfold.storage.Digest;
import java.io.IOException;

/** A pack the collector is deleting was written again; its files cannot be recorded in it until it is gone. */
public final class PackCondemnedException extends IOException {

    public PackCondemnedException(Digest pack) {
        super("pack " + pack + " is being deleted by the garbage collector; store its files again once it is gone");
    }
}
