package dev.layerfold.registry.error;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Errors the servlet container raises before or beneath the API (a body shorter than its Content-Length,
 * broken chunked encoding, a TRACE) reach the container's error page, which Spring Boot would render as
 * its own JSON. Clients of a registry parse the spec's {@code {"errors":[...]}}, so this renders that
 * instead, for every path (the actuator's errors included).
 */
@Controller
class ContainerErrorController implements ErrorController {

    private final RegistryErrorHandler errors;

    ContainerErrorController(RegistryErrorHandler errors) {
        this.errors = errors;
    }

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<byte[]> error(HttpServletRequest request, HttpServletResponse response) {
        HttpStatus status = status(request);
        Object path = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String reason = reason(request, status);
        return errors.registry(RegistryException.of(code(status, String.valueOf(path)), request.getMethod() + " "
                + path + " failed: " + reason).withStatus(status), response);
    }

    private static HttpStatus status(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value ? HttpStatus.resolve(value) : null;
        return status != null && status.isError() ? status : HttpStatus.INTERNAL_SERVER_ERROR;
    }

    private static ErrorCode code(HttpStatus status, String path) {
        if (status.is5xxServerError()) {
            return ErrorCode.UNKNOWN;
        }
        if (status == HttpStatus.METHOD_NOT_ALLOWED) {
            return ErrorCode.UNSUPPORTED;
        }
        if (status == HttpStatus.PAYLOAD_TOO_LARGE) {
            return ErrorCode.SIZE_INVALID;
        }
        if (path.contains("/manifests/")) {
            return ErrorCode.MANIFEST_INVALID;
        }
        return path.contains("/blobs/") ? ErrorCode.BLOB_UPLOAD_INVALID : ErrorCode.UNSUPPORTED;
    }

    private static String reason(HttpServletRequest request, HttpStatus status) {
        if (status == HttpStatus.METHOD_NOT_ALLOWED) {
            return "the method is not allowed here; the distribution API uses GET, HEAD, POST, PUT, PATCH and DELETE";
        }
        Object failure = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        String detail = failure instanceof Throwable t && t.getMessage() != null ? t.getMessage()
                : message instanceof String text && !text.isBlank() ? text : status.getReasonPhrase();
        return detail + "; check the request (its body, Content-Length and Transfer-Encoding) and send it again";
    }
}
