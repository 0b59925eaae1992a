package dev.layerfold.registry.error;

import dev.layerfold.storage.InvalidDigestException;
import dev.layerfold.storage.InvalidRepositoryNameException;
import dev.layerfold.storage.blob.ContentBusyException;
import dev.layerfold.storage.blob.UploadNotFoundException;
import jakarta.servlet.http.HttpServletResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns every failure of a registry request into the spec's JSON error body, so that bad input is
 * never answered with a bare 500 and clients always get a code they can act on.
 */
@RestControllerAdvice(basePackages = "dev.layerfold.registry")
class RegistryErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(RegistryErrorHandler.class);

    private final JsonMapper json;

    RegistryErrorHandler(JsonMapper json) {
        this.json = json;
    }

    @ExceptionHandler(RegistryException.class)
    ResponseEntity<byte[]> registry(RegistryException e, HttpServletResponse response) {
        if (response.isCommitted()) {
            return null;
        }
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_JSON);
        e.headers().forEach(builder::header);
        return builder.body(body(e.errors()));
    }

    @ExceptionHandler(InvalidDigestException.class)
    ResponseEntity<byte[]> invalidDigest(InvalidDigestException e, HttpServletResponse response) {
        return registry(RegistryException.of(ErrorCode.DIGEST_INVALID, e.getMessage()), response);
    }

    @ExceptionHandler(InvalidRepositoryNameException.class)
    ResponseEntity<byte[]> invalidName(InvalidRepositoryNameException e, HttpServletResponse response) {
        return registry(RegistryException.of(ErrorCode.NAME_INVALID, e.getMessage()), response);
    }

    /** An upload that vanished between our check and the store call (cancelled or completed concurrently). */
    @ExceptionHandler(UploadNotFoundException.class)
    ResponseEntity<byte[]> uploadGone(UploadNotFoundException e, HttpServletResponse response) {
        return registry(RegistryException.of(ErrorCode.BLOB_UPLOAD_UNKNOWN, e.getMessage()), response);
    }

    /**
     * A deduplicated layer the registry had no memory left to rebuild in time: 429, which clients
     * retry. The blob handler had already set the headers of the bytes it meant to send.
     */
    @ExceptionHandler(ContentBusyException.class)
    ResponseEntity<byte[]> busy(ContentBusyException e, HttpServletResponse response) {
        if (response.isCommitted()) {
            return null;
        }
        response.reset();
        return registry(RegistryException.of(ErrorCode.TOOMANYREQUESTS, e.getMessage())
                .withHeader("Retry-After", Long.toString(Math.max(1, e.retryAfter().toSeconds()))), response);
    }

    /** Rethrown once committed: the container then closes the connection instead of ending the response cleanly. */
    @ExceptionHandler(BrokenResponseException.class)
    ResponseEntity<byte[]> brokenResponse(BrokenResponseException e, HttpServletResponse response) throws BrokenResponseException {
        if (response.isCommitted()) {
            throw e;
        }
        return unexpected(e, response);
    }

    @ExceptionHandler(RequestBodyException.class)
    ResponseEntity<byte[]> brokenBody(RequestBodyException e, HttpServletResponse response) {
        return registry(RegistryException.of(e.code(), e.getMessage()), response);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<byte[]> unexpected(Exception e, HttpServletResponse response) {
        if (response.isCommitted()) {
            // Mostly a client that went away mid-download; the status line is long gone.
            log.debug("request failed after the response was committed", e);
            return null;
        }
        log.error("request failed", e);
        return registry(RegistryException.of(ErrorCode.UNKNOWN,
                "the registry failed to handle the request: " + e.getClass().getSimpleName()
                        + "; retry, and report it if it persists"), response);
    }

    private byte[] body(List<RegistryException.ApiError> errors) {
        List<Map<String, Object>> entries = errors.stream().map(error -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("code", error.code().name());
            entry.put("message", error.message());
            entry.put("detail", error.detail() == null ? Map.of() : error.detail());
            return entry;
        }).toList();
        return json.writeValueAsBytes(Map.of("errors", entries));
    }
}
