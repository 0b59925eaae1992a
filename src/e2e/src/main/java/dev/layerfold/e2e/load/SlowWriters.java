package dev.layerfold.e2e.load;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Clients that send a request head declaring a large body, then one byte of it every {@code interval}:
 * a slow or hostile uploader. The bytes keep coming while this object is open.
 */
public final class SlowWriters implements AutoCloseable {

    /** The body each writer declares; far more than it will ever send. */
    private static final long DECLARED_LENGTH = 64L * 1024 * 1024;

    private final List<RawConnection> connections;
    private final ScheduledExecutorService ticker;
    private final AtomicInteger dropped = new AtomicInteger();

    private SlowWriters(List<RawConnection> connections, Duration interval) {
        this.connections = connections;
        this.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("slow-writers").daemon().factory());
        ticker.scheduleAtFixedRate(this::sendOneByteEach, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Opens {@code count} connections to {@code base}, the i-th sending {@code method pathOf(i)} with a
     * declared body of 64 MiB and its first byte.
     */
    public static SlowWriters open(URI base, String method, IntFunction<String> pathOf, int count, Duration interval)
            throws IOException {
        List<RawConnection> connections = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                RawConnection connection = RawConnection.open(base, 0);
                connections.add(connection);
                connection.sendHead(method, pathOf.apply(i), "Content-Type: application/octet-stream",
                        "Content-Length: " + DECLARED_LENGTH);
                connection.send(new byte[1]);
            }
            return new SlowWriters(connections, interval);
        } catch (IOException | RuntimeException e) {
            SlowReaders.closeAll(connections);
            throw e;
        }
    }

    /** Writers whose connection the server has closed so far. */
    public int dropped() {
        return dropped.get();
    }

    public int size() {
        return connections.size();
    }

    private void sendOneByteEach() {
        int failed = 0;
        for (RawConnection connection : connections) {
            try {
                connection.send(new byte[1]);
            } catch (IOException e) {
                failed++;
            }
        }
        dropped.set(failed);
    }

    @Override
    public void close() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(10, TimeUnit.SECONDS);
        SlowReaders.closeAll(connections);
    }
}
