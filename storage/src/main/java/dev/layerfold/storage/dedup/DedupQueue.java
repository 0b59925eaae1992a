package dev.layerfold.storage.dedup;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The durable queue of layers to deduplicate, shared by the dedup workers of every process on the
 * same backend. Checked for every implementation by {@code DedupQueueContract}.
 *
 * <ul>
 *   <li>Durable: a task enqueued survives a crash of any process.</li>
 *   <li>At least once: a task is handed to one worker at a time; if that worker neither completes
 *       nor renews it within its lease (it crashed, or stalled), it is handed out again. Work on a
 *       task must therefore be idempotent.</li>
 *   <li>A layer is queued once: enqueueing a layer that is already waiting changes nothing, so the
 *       backlog counts layers, however many manifests name them.</li>
 * </ul>
 */
public interface DedupQueue {

    void enqueue(LayerTask task) throws IOException;

    /**
     * Hands out the oldest task nobody holds (never handed out, or whose lease ran out), leased to
     * {@code worker} for {@code lease}; empty if there is none. Does not wait.
     */
    Optional<TakenTask> take(String worker, Duration lease) throws IOException;

    /**
     * Extends the lease of a task still being worked on; false if the worker no longer holds it
     * (its lease ran out and the task may be with another worker: stop, the other finishes it).
     */
    boolean renew(TakenTask task, String worker, Duration lease) throws IOException;

    /** Removes a finished task; a no-op if it is already gone. */
    void complete(TakenTask task) throws IOException;

    /** Tasks enqueued and not completed, whether waiting or being worked on. */
    long backlog() throws IOException;
}
