package dev.layerfold.registry.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Bytes the registry holds in storage (a blob, a manifest), sent as a response body without ever holding
 * them whole in memory: by the kernel's sendfile from a local file, or copied from a stream in bounded
 * pieces. A client that reads slowly then holds a connection, not a copy of the content.
 */
public interface StoredBytes {

    /** Large copies keep the per-chunk overhead (syscalls, Tomcat buffer handling) small on big layers. */
    int COPY_BUFFER_SIZE = 256 * 1024;

    /**
     * Below this, copying through the JVM answers sooner than handing the file to the connector's poller
     * (Tomcat's DefaultServlet draws the line at 48 KiB too).
     */
    long SENDFILE_THRESHOLD = 48 * 1024;

    /** The file holding exactly these bytes, where storage keeps them as a local file. */
    Optional<Path> localFile() throws IOException;

    /** {@code length} bytes from {@code offset}. */
    InputStream open(long offset, long length) throws IOException;

    /**
     * Sends bytes {@code [first, first + length)} as the body of a response whose status and
     * Content-Length the caller has set.
     */
    default void send(RegistryRequest request, HttpServletResponse response, long first, long length)
            throws IOException {
        if (length >= SENDFILE_THRESHOLD && request.canSendFile()) {
            Optional<Path> file = localFile();
            if (file.isPresent()) {
                request.sendFile(file.get(), first, first + length);
                return;
            }
        }
        try (InputStream in = open(first, length)) {
            OutputStream out = response.getOutputStream();
            // A small blob needs no buffer larger than itself.
            byte[] buffer = new byte[Math.clamp(length, 1, COPY_BUFFER_SIZE)];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
            }
        }
    }
}
