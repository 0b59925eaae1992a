package dev.layerfold.registry.error;

import org.springframework.http.HttpStatus;

/**
 * The error codes of the distribution spec, each with the HTTP status it is usually sent with.
 * A {@link RegistryException} may override the status where the spec asks for another one
 * (416 for an out-of-order chunk, 413 for an oversized manifest).
 */
public enum ErrorCode {
    BLOB_UNKNOWN(HttpStatus.NOT_FOUND),
    BLOB_UPLOAD_INVALID(HttpStatus.BAD_REQUEST),
    BLOB_UPLOAD_UNKNOWN(HttpStatus.NOT_FOUND),
    DIGEST_INVALID(HttpStatus.BAD_REQUEST),
    MANIFEST_BLOB_UNKNOWN(HttpStatus.BAD_REQUEST),
    MANIFEST_INVALID(HttpStatus.BAD_REQUEST),
    MANIFEST_UNKNOWN(HttpStatus.NOT_FOUND),
    NAME_INVALID(HttpStatus.BAD_REQUEST),
    NAME_UNKNOWN(HttpStatus.NOT_FOUND),
    SIZE_INVALID(HttpStatus.BAD_REQUEST),
    UNSUPPORTED(HttpStatus.METHOD_NOT_ALLOWED),
    /** The reference registry's code for 429: the client may retry after the Retry-After it was given. */
    TOOMANYREQUESTS(HttpStatus.TOO_MANY_REQUESTS),
    /** Sent with a {@code WWW-Authenticate} challenge that tells the client how to sign in. */
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED),
    DENIED(HttpStatus.FORBIDDEN),
    /** The reference registry's code for a service it depends on being down: here, a pull-through upstream. */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE),
    /** Not a spec code: what the reference registry sends with a 500, when the fault is ours. */
    UNKNOWN(HttpStatus.INTERNAL_SERVER_ERROR);

    private final HttpStatus status;

    ErrorCode(HttpStatus status) {
        this.status = status;
    }

    public HttpStatus status() {
        return status;
    }
}
