package dev.layerfold.e2e.notification;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * The receiving party of notifications: an HTTP server that answers 200 to every POST and keeps what
 * it was sent. It can go down (its port refuses connections) and come back on the same port, and it
 * can be slow on a path (answer only after a delay).
 */
public final class WebhookReceiver implements AutoCloseable {

    /** One request as received: its path, its headers (names in lower case) and its body. */
    public record Received(String path, Map<String, String> headers, byte[] body) {
    }

    private final int port;
    private final List<Received> received = new ArrayList<>();
    private final Map<String, Duration> delays = new ConcurrentHashMap<>();
    private HttpServer server;

    private WebhookReceiver(int port) {
        this.port = port;
    }

    public static WebhookReceiver start() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        WebhookReceiver receiver = new WebhookReceiver(port);
        receiver.up();
        return receiver;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    synchronized void up() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor()); // a slow path holds up no other
        server.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
            synchronized (this) {
                received.add(new Received(exchange.getRequestURI().getPath(), headers, body));
            }
            Duration delay = delays.getOrDefault(exchange.getRequestURI().getPath(), Duration.ZERO);
            if (!delay.isZero()) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    /** Answers requests to {@code path} only after {@code delay} (zero: at once). */
    void delay(String path, Duration delay) {
        delays.put(path, delay);
    }

    /** Stops answering: connections to the port are refused until {@link #up()}. */
    synchronized void down() {
        server.stop(0);
        server = null;
    }

    public synchronized List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            down();
        }
    }
}
