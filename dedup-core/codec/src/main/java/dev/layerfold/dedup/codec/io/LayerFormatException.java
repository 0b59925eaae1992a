package dev.layerfold.dedup.codec.io;

import java.io.IOException;

/**
 * The layer blob cannot be split: a damaged container (truncated gzip, bad CRC, corrupt deflate
 * data) or a format the codec only detects (zstd). The message says what and where.
 */
public class LayerFormatException extends IOException {

    public LayerFormatException(String message) {
        super(message);
    }

    public LayerFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
