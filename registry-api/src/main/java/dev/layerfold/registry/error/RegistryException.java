package dev.layerfold.registry.error;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A request the registry refuses, rendered as the spec's {@code {"errors": [...]}} body. Carries one
 * or more errors (a manifest push reports every unknown blob at once), the HTTP status, and headers
 * the client needs to recover (the current {@code Range} of an upload, for instance).
 */
public final class RegistryException extends RuntimeException {

    /** One entry of the {@code errors} array; {@code detail} is any JSON-serialisable value or null. */
    public record ApiError(ErrorCode code, String message, Object detail) {
    }

    private final List<ApiError> errors;
    private HttpStatus status;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private RegistryException(HttpStatus status, List<ApiError> errors) {
        super(errors.getFirst().code() + ": " + errors.getFirst().message(), null, false, false);
        this.status = status;
        this.errors = List.copyOf(errors);
    }

    public static RegistryException of(ErrorCode code, String message) {
        return new RegistryException(code.status(), List.of(new ApiError(code, message, null)));
    }

    public static RegistryException of(ErrorCode code, String message, Object detail) {
        return new RegistryException(code.status(), List.of(new ApiError(code, message, detail)));
    }

    /** Several errors in one response, sent with the status of the first. */
    public static RegistryException ofAll(List<ApiError> errors) {
        return new RegistryException(errors.getFirst().code().status(), new ArrayList<>(errors));
    }

    public RegistryException withStatus(HttpStatus status) {
        this.status = status;
        return this;
    }

    public RegistryException withHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public HttpStatus status() {
        return status;
    }

    public List<ApiError> errors() {
        return errors;
    }

    public Map<String, String> headers() {
        return Map.copyOf(headers);
    }
}
