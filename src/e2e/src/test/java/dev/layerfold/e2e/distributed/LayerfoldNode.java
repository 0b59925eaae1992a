package dev.layerfold.e2e.distributed;

import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One Layerfold process that a test may kill and start again on the same storage (its data directory
 * and its backend properties), as an orchestrator restarts a crashed node.
 */
public final class LayerfoldNode implements AutoCloseable {

    /** Small enough that a node buffering blobs would fail; the S3 parts in flight fit easily. */
    private static final String MAX_HEAP = "256m";
    /** C1 only: the node starts much faster, and restarts are most of what these tests wait for. */
    private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1");
    private static final Path LOGS = Path.of("target", "registry-logs");

    private final Path dataDir;
    private final Map<String, String> backend;
    private RegistryProcess process;

    private LayerfoldNode(Path dataDir, Map<String, String> backend) {
        this.dataDir = dataDir;
        this.backend = backend;
    }

    public static LayerfoldNode start(Path dataDir, Map<String, String> backend) throws IOException, InterruptedException {
        LayerfoldNode node = new LayerfoldNode(dataDir, backend);
        node.process = LayerfoldProcess.start(MAX_HEAP, dataDir, LOGS, JVM_OPTIONS, backend);
        return node;
    }

    /**
     * Starts one node per data directory on the same {@code backend}, at the same time (start-up is
     * most of what a multi-node test waits for); if any fails to start, the others are stopped.
     */
    public static List<LayerfoldNode> startTogether(List<Path> dataDirs, Map<String, String> backend)
            throws InterruptedException {
        List<CompletableFuture<LayerfoldNode>> starting = dataDirs.stream()
                .map(dir -> CompletableFuture.supplyAsync(() -> startUnchecked(dir, backend))).toList();
        List<LayerfoldNode> nodes = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<LayerfoldNode> node : starting) {
            try {
                nodes.add(node.join());
            } catch (CompletionException e) {
                failure = failure == null ? new IllegalStateException("a node did not start on " + backend, e.getCause()) : failure;
            }
        }
        if (failure != null) {
            for (LayerfoldNode node : nodes) {
                node.close();
            }
            throw failure;
        }
        return nodes;
    }

    private static LayerfoldNode startUnchecked(Path dataDir, Map<String, String> backend) {
        try {
            return start(dataDir, backend);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The running process; a new one (on a new port) after {@link #restart()}. */
    public RegistryProcess process() {
        return process;
    }

    /** {@code kill -9}: the node gets no chance to finish or clean up what it was doing. */
    public void kill() throws InterruptedException {
        process.kill();
    }

    /** Starts the node again on the storage it had, after {@link #kill()}. */
    public void restart() throws IOException, InterruptedException {
        process = LayerfoldProcess.start(MAX_HEAP, dataDir, LOGS, JVM_OPTIONS, backend);
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
