package dev.layerfold.e2e.distributed;

import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a loopback port in front of a node. It forwards what clients send at a limited rate
 * per connection and counts it, so a push through it lasts long enough to be interrupted at a chosen
 * point; and it can be pointed at the node restarted on another port while clients keep its address,
 * as they would behind a load balancer.
 */
final class ThrottledProxy implements AutoCloseable {

    private static final int BUFFER_SIZE = 64 << 10;

    private final ServerSocket listener;
    private final long bytesPerSecond;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong returned = new AtomicLong();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile int targetPort;

    private ThrottledProxy(ServerSocket listener, long bytesPerSecond, int targetPort) {
        this.listener = listener;
        this.bytesPerSecond = bytesPerSecond;
        this.targetPort = targetPort;
    }

    /** A proxy to {@code node} that forwards at most {@code bytesPerSecond} per client connection. */
    static ThrottledProxy to(RegistryProcess node, long bytesPerSecond) throws IOException {
        ThrottledProxy proxy = new ThrottledProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                bytesPerSecond, node.baseUri().getPort());
        Thread.ofVirtual().name("proxy-accept").start(proxy::accept);
        return proxy;
    }

    URI baseUri() {
        return URI.create("http://" + hostAndPort());
    }

    String hostAndPort() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Bytes clients sent that reached a node so far. */
    long forwarded() {
        return forwarded.get();
    }

    /** Bytes the node sent back to clients so far. */
    long returned() {
        return returned.get();
    }

    /** New connections go to {@code node}; open ones stay with the node they reached. */
    void pointAt(RegistryProcess node) {
        targetPort = node.baseUri().getPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket upstream = new Socket();
                sockets.add(client);
                sockets.add(upstream);
                try {
                    upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                } catch (IOException nodeDown) {
                    closeBoth(client, upstream);
                    continue;
                }
                Thread.ofVirtual().start(() -> pump(client, upstream, true));
                Thread.ofVirtual().start(() -> pump(upstream, client, false));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Copies one direction until either side ends; then the whole connection ends, as for a dead peer. */
    private void pump(Socket from, Socket to, boolean fromClient) {
        byte[] buffer = new byte[BUFFER_SIZE];
        long start = System.nanoTime();
        long copied = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
                if (!fromClient) {
                    returned.addAndGet(n);
                }
                if (fromClient) {
                    forwarded.addAndGet(n);
                    copied += n;
                    long dueNanos = copied * 1_000_000_000L / bytesPerSecond - (System.nanoTime() - start);
                    if (dueNanos > 0) {
                        Thread.sleep(dueNanos / 1_000_000, (int) (dueNanos % 1_000_000));
                    }
                }
            }
        } catch (IOException | InterruptedException connectionEnded) {
            // the other side closed or died; closing both below tells the remaining side
        } finally {
            closeBoth(from, to);
        }
    }

    private void closeBoth(Socket first, Socket second) {
        for (Socket socket : new Socket[] {first, second}) {
            sockets.remove(socket);
            try {
                socket.close();
            } catch (IOException alreadyBroken) {
                // nothing left to release
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
