package dev.layerfold.e2e.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One HTTP/1.1 connection spoken to byte by byte, as a hostile or broken client would: a request head
 * sent whole, and then as much or as little of the body, or of reading the response, as the caller likes.
 */
final class RawConnection implements AutoCloseable {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /**
     * Connects to the registry at {@code base}, with a receive buffer of {@code receiveBuffer} bytes
     * (0 for the system's default): a small one makes the server's writes block as soon as the client
     * stops reading.
     */
    static RawConnection open(URI base, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        try {
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer); // before connecting, so the window starts small
            }
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), (int) CONNECT_TIMEOUT.toMillis());
            return new RawConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends a request head: {@code method path}, the Host header, then {@code headers} (lines without CRLF). */
    void sendHead(String method, String path, String... headers) throws IOException {
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(socket.getInetAddress().getHostAddress()).append(':').append(socket.getPort()).append("\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads the status line's code, waiting at most {@code timeout}; -1 if the server closed first. */
    int readStatus(Duration timeout) throws IOException {
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.append((char) b);
        }
        String[] parts = line.toString().split(" ");
        return parts.length > 1 && parts[0].startsWith("HTTP/") ? Integer.parseInt(parts[1]) : -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
