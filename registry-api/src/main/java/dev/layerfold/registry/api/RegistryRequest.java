package dev.layerfold.registry.api;

import dev.layerfold.registry.error.ErrorCode;
import dev.layerfold.registry.error.RegistryException;
import dev.layerfold.registry.error.RequestBodyException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.http.HttpStatus;

/**
 * The parts of an HTTP request the handlers use. Query parameters are parsed from the raw query
 * string, never through the servlet parameter API, which would read a form-encoded body and so
 * swallow a blob sent with the wrong Content-Type.
 */
public final class RegistryRequest {

    private final HttpServletRequest servlet;
    private final QueryParameters query;
    private Access access = Access.EVERYONE;
    private String id;

    RegistryRequest(HttpServletRequest servlet) {
        this.servlet = servlet;
        this.query = QueryParameters.parse(servlet.getQueryString());
    }

    void admitted(Access access) {
        this.access = access;
    }

    /** What the caller may do, as the {@link AccessGuard} admitted the request. */
    public Access access() {
        return access;
    }

    /** Who pulls, as the predictor tells clients apart. */
    public Puller puller() {
        return Puller.of(this);
    }

    /** The client's address as the server sees it (a proxy's, behind one), for the audit log. */
    public String remoteAddress() {
        return servlet.getRemoteAddr();
    }

    /** The client's address and port, as distribution's notification envelope reports it. */
    public String remoteAddressAndPort() {
        return servlet.getRemoteAddr() + ":" + servlet.getRemotePort();
    }

    /** The port this process answered the request on. */
    public int localPort() {
        return servlet.getLocalPort();
    }

    /** An id of this request, made on first use, for events that name it. */
    public String id() {
        if (id == null) {
            id = java.util.UUID.randomUUID().toString();
        }
        return id;
    }

    /** {@code scheme://host[:port]} as the client addressed the registry, for URLs it is sent back. */
    public String origin() {
        String host = servlet.getHeader("Host");
        return servlet.getScheme() + "://" + (host != null ? host : servlet.getServerName() + ":" + servlet.getServerPort());
    }

    public String method() {
        return servlet.getMethod();
    }

    public boolean isHead() {
        return "HEAD".equals(servlet.getMethod());
    }

    /** Throws UNSUPPORTED (405, with an Allow header) unless the request uses one of the methods. */
    public void requireMethod(String... allowed) {
        for (String method : allowed) {
            if (method.equals(servlet.getMethod())) {
                return;
            }
        }
        throw RegistryException.of(ErrorCode.UNSUPPORTED, servlet.getMethod() + " is not supported on "
                        + servlet.getRequestURI() + "; use " + String.join(", ", allowed))
                .withStatus(HttpStatus.METHOD_NOT_ALLOWED)
                .withHeader("Allow", String.join(", ", allowed));
    }

    public QueryParameters query() {
        return query;
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(servlet.getHeader(name));
    }

    /** Every value of a header that may be repeated, such as Accept. */
    public List<String> headers(String name) {
        return Collections.list(servlet.getHeaders(name));
    }

    /** The declared body length, if the client sent a Content-Length. */
    public OptionalLong contentLength() {
        long length = servlet.getContentLengthLong();
        return length < 0 ? OptionalLong.empty() : OptionalLong.of(length);
    }

    /** Whether the request carries body bytes: a positive Content-Length or a chunked body. */
    public boolean hasBody() {
        long length = servlet.getContentLengthLong();
        return length > 0 || (length < 0 && servlet.getHeader("Transfer-Encoding") != null);
    }

    /**
     * Whether the servlet container can send a file's bytes as the response body itself (Tomcat's
     * sendfile: the kernel copies from the page cache to the socket, and no byte passes through the JVM).
     */
    public boolean canSendFile() {
        return Boolean.TRUE.equals(servlet.getAttribute("org.apache.tomcat.sendfile.support"));
    }

    /**
     * Has the container send bytes {@code [start, end)} of {@code file} as the response body after the
     * handler returns, when {@link #canSendFile()}. The handler sets the status and a Content-Length of
     * {@code end - start}, and writes no body itself.
     */
    public void sendFile(Path file, long start, long end) {
        servlet.setAttribute("org.apache.tomcat.sendfile.filename", file.toAbsolutePath().toString());
        servlet.setAttribute("org.apache.tomcat.sendfile.start", start);
        servlet.setAttribute("org.apache.tomcat.sendfile.end", end);
    }

    /**
     * The request body. Read failures (a client that hangs up, a body shorter than its
     * Content-Length) surface as {@link RequestBodyException}, so they are not mistaken for storage
     * failures.
     */
    public InputStream body() throws IOException {
        return new FilterInputStream(servlet.getInputStream()) {
            @Override
            public int read() throws IOException {
                try {
                    return super.read();
                } catch (IOException e) {
                    throw RequestBodyException.broken(e);
                }
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                try {
                    return super.read(buffer, offset, length);
                } catch (IOException e) {
                    throw RequestBodyException.broken(e);
                }
            }
        };
    }
}
