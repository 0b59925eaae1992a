package dev.layerfold.storage.blob;

import java.io.IOException;
import java.time.Duration;

/**
 * The content exists but cannot be produced now: the registry is already rebuilding as many layers
 * as its memory allows, and this request waited its turn for as long as it may. Nothing is wrong with
 * the blob; the client should retry after {@link #retryAfter()} (the API answers 429 with
 * {@code Retry-After}).
 */
public class ContentBusyException extends IOException {

    private final Duration retryAfter;

    public ContentBusyException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
