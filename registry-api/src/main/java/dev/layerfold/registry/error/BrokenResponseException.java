package dev.layerfold.registry.error;

import java.io.IOException;

/**
 * A response that failed after its status line and part of its body were sent (a pulled-through blob
 * whose upstream broke off, or sent the wrong bytes). No error body can follow; the one signal left is
 * to close the connection short of the Content-Length, which every client takes as a failed download.
 * Rethrown to the servlet container, which closes the connection of a committed response that failed.
 */
public final class BrokenResponseException extends IOException {

    public BrokenResponseException(String message, Throwable cause) {
        super(message, cause);
    }
}
