package dev.layerfold.e2e.distributed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Layerfold nodes on one storage, as in a cluster behind a load balancer: started together, stopped together. */
public final class LayerfoldNodes implements AutoCloseable, Iterable<LayerfoldNode> {

    private final List<LayerfoldNode> nodes;

    private LayerfoldNodes(List<LayerfoldNode> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts one node per data directory on the same {@code backend}, at the same time (start-up is
     * most of what a multi-node test waits for); if any fails to start, the others are stopped.
     */
    public static LayerfoldNodes start(List<Path> dataDirs, Map<String, String> backend) throws InterruptedException {
        List<CompletableFuture<LayerfoldNode>> starting = dataDirs.stream()
                .map(dir -> CompletableFuture.supplyAsync(() -> startOne(dir, backend))).toList();
        LayerfoldNodes started = new LayerfoldNodes(new ArrayList<>());
        RuntimeException failure = null;
        for (CompletableFuture<LayerfoldNode> node : starting) {
            try {
                started.nodes.add(node.join());
            } catch (CompletionException e) {
                failure = failure == null ? new IllegalStateException("a node did not start on " + backend, e.getCause()) : failure;
            }
        }
        if (failure != null) {
            started.close();
            throw failure;
        }
        return started;
    }

    private static LayerfoldNode startOne(Path dataDir, Map<String, String> backend) {
        try {
            return LayerfoldNode.start(dataDir, backend);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The {@code index}th node, in the order of the data directories. */
    public LayerfoldNode get(int index) {
        return nodes.get(index);
    }

    public int size() {
        return nodes.size();
    }

    @Override
    public Iterator<LayerfoldNode> iterator() {
        return Collections.unmodifiableList(nodes).iterator();
    }

    @Override
    public void close() throws InterruptedException {
        for (LayerfoldNode node : nodes) {
            node.close();
        }
    }
}
