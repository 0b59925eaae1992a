package dev.layerfold.storage.notification;

import java.util.List;

/**
 * The oldest events of an endpoint, claimed for one delivery.
 *
 * @param attempts failed deliveries since the last one that succeeded, for the backoff
 */
public record OutboxBatch(String endpoint, List<OutboxEntry> entries, int attempts) {

    public OutboxBatch {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a claimed batch holds at least one event");
        }
        entries = List.copyOf(entries);
    }

    /** The sequence number of the batch's last event: delivering the batch removes everything up to it. */
    public long lastSequence() {
        return entries.getLast().sequence();
    }
}
