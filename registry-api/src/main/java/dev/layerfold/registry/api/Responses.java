package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;

/** Writing small, fully known response bodies (JSON documents); stored content streams ({@link StoredBytes}). */
public final class Responses {

    private Responses() {
    }

    /** Sends {@code body} with its length; a HEAD request gets the headers only. */
    public static void body(RegistryRequest request, HttpServletResponse response, HttpStatus status,
                            String contentType, byte[] body) throws IOException {
        response.setStatus(status.value());
        response.setContentType(contentType);
        response.setContentLengthLong(body.length);
        if (!request.isHead()) {
            response.getOutputStream().write(body);
        }
    }

    /** A response with no body, such as 201 Created or 202 Accepted. */
    public static void empty(HttpServletResponse response, HttpStatus status) {
        response.setStatus(status.value());
        response.setContentLength(0);
    }
}
