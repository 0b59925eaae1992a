package dev.layerfold.e2e.load;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Clients that ask for a response and then stop reading it after its status line, with a small receive
 * buffer, so the server is left holding the rest. Open while this object is.
 */
public final class SlowReaders implements AutoCloseable {

    /** The receive buffer the hostile clients used. */
    public static final int RECEIVE_BUFFER = 4 * 1024;

    private final List<RawConnection> connections;

    private SlowReaders(List<RawConnection> connections) {
        this.connections = connections;
    }

    /** Opens {@code count} connections to {@code base} that each send {@code GET path}. */
    public static SlowReaders open(URI base, String path, int count) throws IOException {
        List<RawConnection> connections = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                RawConnection connection = RawConnection.open(base, RECEIVE_BUFFER);
                connections.add(connection);
                connection.sendHead("GET", path, "Accept: */*");
            }
            return new SlowReaders(connections);
        } catch (IOException | RuntimeException e) {
            closeAll(connections);
            throw e;
        }
    }

    /**
     * Reads each connection's status line (and nothing more), all within {@code timeout}: how many got
     * which status, -1 counting those the server closed or did not answer in time.
     */
    public Map<Integer, Integer> awaitStatuses(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (RawConnection connection : connections) {
            int status;
            try {
                status = connection.readStatus(Duration.ofNanos(deadline - System.nanoTime()));
            } catch (IOException | NumberFormatException e) {
                status = -1;
            }
            statuses.merge(status, 1, Integer::sum);
        }
        return statuses;
    }

    public int size() {
        return connections.size();
    }

    @Override
    public void close() {
        closeAll(connections);
    }

    static void closeAll(List<RawConnection> connections) {
        for (RawConnection connection : connections) {
            try {
                connection.close();
            } catch (IOException e) {
                // closing a socket the server already dropped
            }
        }
    }
}
