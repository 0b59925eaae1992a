package dev.layerfold.storage.dedup;

import java.util.Objects;

/**
 * A task a worker took from the {@link DedupQueue}: its id in the queue, and how many times it was
 * handed out so far, this time included (a task that keeps killing its workers is given up on).
 */
public record TakenTask(String id, LayerTask task, int deliveries) {
    public TakenTask {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(task, "task");
    }
}
