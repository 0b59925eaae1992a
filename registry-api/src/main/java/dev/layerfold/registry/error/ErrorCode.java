package dev.layerfold.registry.error;

import org.springframework.http.HttpStatus;

/**
 * The error codes of the distribution spec, each with the HTTP status it is usually sent with.
 * A {@link RegistryException} may override the status where the spec asks for another one
 * (416 for an out-of-order chunk, 413 for an oversized manifest).
 */
public enum ErrorCode {
    BLOB_UNKNOWN(HttpStatus.NOT_FOUND, "blob unknown to registry"),
    BLOB_UPLOAD_INVALID(HttpStatus.BAD_REQUEST, "blob upload invalid"),
    BLOB_UPLOAD_UNKNOWN(HttpStatus.NOT_FOUND, "blob upload unknown to registry"),
    DIGEST_INVALID(HttpStatus.BAD_REQUEST, "provided digest did not match uploaded content"),
    MANIFEST_BLOB_UNKNOWN(HttpStatus.BAD_REQUEST, "manifest references a blob unknown to the repository"),
    MANIFEST_INVALID(HttpStatus.BAD_REQUEST, "manifest invalid"),
    MANIFEST_UNKNOWN(HttpStatus.NOT_FOUND, "manifest unknown"),
    NAME_INVALID(HttpStatus.BAD_REQUEST, "invalid repository name"),
    NAME_UNKNOWN(HttpStatus.NOT_FOUND, "repository name not known to registry"),
    SIZE_INVALID(HttpStatus.BAD_REQUEST, "provided length did not match content length"),
    UNSUPPORTED(HttpStatus.METHOD_NOT_ALLOWED, "the operation is unsupported"),
    /** Not a spec code: what the reference registry sends with a 500, when the fault is ours. */
    UNKNOWN(HttpStatus.INTERNAL_SERVER_ERROR, "unknown error");

    private final HttpStatus status;
    private final String description;

    ErrorCode(HttpStatus status, String description) {
        this.status = status;
        this.description = description;
    }

    public HttpStatus status() {
        return status;
    }

    /** The spec's one-line description, used when there is nothing more specific to say. */
    public String description() {
        return description;
    }
}
