package dev.layerfold.registry.error;

import java.io.IOException;

/**
 * The request body was not what the request said it would be: the client closed the connection
 * early, broke the chunked encoding, or sent more or fewer bytes than it declared. Kept apart from
 * storage failures, which are the registry's fault and answered with a 500. Stores undo a partial
 * append when the stream they read from throws, so nothing of such a body is kept.
 */
public final class RequestBodyException extends IOException {

    private final ErrorCode code;

    private RequestBodyException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** Reading the body failed underneath us. */
    public static RequestBodyException broken(IOException cause) {
        return new RequestBodyException(ErrorCode.BLOB_UPLOAD_INVALID,
                "the request body ended before it was complete (" + cause.getMessage() + "); send it again", cause);
    }

    /** The body's length disagrees with what its headers declared. */
    public static RequestBodyException wrongLength(String message) {
        return new RequestBodyException(ErrorCode.SIZE_INVALID, message, null);
    }

    ErrorCode code() {
        return code;
    }
}
