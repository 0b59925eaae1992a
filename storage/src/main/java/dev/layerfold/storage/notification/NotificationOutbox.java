package dev.layerfold.storage.notification;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable outbox of registry events, one ordered queue per notification endpoint, shared by the
 * dispatchers of every process on the same backend. Checked for every implementation by
 * {@code NotificationOutboxContract}.
 *
 * <ul>
 *   <li>Ordered: each endpoint's events come out in the order they were appended.</li>
 *   <li>Bounded: an append beyond an endpoint's capacity drops that endpoint's oldest events (and
 *       says how many), so a dead endpoint costs bounded space and never refuses the API a write.</li>
 *   <li>One dispatcher per endpoint: a claim leases the endpoint's head to one holder; nobody else
 *       gets it while the lease lasts. A holder that neither reports nor renews in time (it crashed)
 *       loses the claim, and the next claimant gets the same events again: delivery is at least once.</li>
 *   <li>Backoff is shared: after a failure no holder of any process claims the endpoint again before
 *       the retry time, and the failed attempts are counted until a delivery succeeds.</li>
 * </ul>
 *
 * <p>Leases and retry times are on the store's clock, so processes with skewed clocks agree.
 */
public interface NotificationOutbox {

    /**
     * Appends {@code events} (serialized, opaque to the store) at the end of the endpoint's queue,
     * then drops its oldest events beyond {@code capacity}.
     *
     * @return how many events were dropped
     */
    default long append(String endpoint, List<String> events, long capacity) throws IOException {
        return append(List.of(new OutboxAppend(endpoint, events, capacity))).getOrDefault(endpoint, 0L);
    }

    /**
     * Appends to several endpoints' queues, as {@link #append(String, List, long)} does to each; in one
     * write where the store allows (an event for many endpoints costs one commit, not one each).
     *
     * @return how many events were dropped, per endpoint
     */
    Map<String, Long> append(List<OutboxAppend> appends) throws IOException;

    /** Events for one endpoint's queue, and the most the queue holds. */
    record OutboxAppend(String endpoint, List<String> events, long capacity) {
        public OutboxAppend {
            events = List.copyOf(events);
        }
    }

    /**
     * Leases the endpoint to {@code holder} and returns its oldest events, at most {@code max}; empty
     * if the queue is empty, another holder's lease is running, or a retry time has not come yet.
     * A holder may claim again what it holds (it gets the lease renewed).
     */
    Optional<OutboxBatch> claim(String endpoint, String holder, Duration lease, int max) throws IOException;

    /** Extends the holder's lease; false if it no longer holds the endpoint (stop: another may have it). */
    boolean renew(String endpoint, String holder, Duration lease) throws IOException;

    /**
     * Removes the batch's events (and any older ones), clears the failed attempts and ends the
     * holder's lease. Removing is idempotent: events another holder delivered meanwhile stay removed.
     */
    void delivered(OutboxBatch batch, String holder) throws IOException;

    /**
     * Ends the holder's lease after a failed delivery: the attempts go up by one and nobody claims the
     * endpoint again for {@code retryIn}. A no-op if the holder no longer holds the endpoint.
     */
    void failed(String endpoint, String holder, Duration retryIn) throws IOException;

    /** Events waiting for the endpoint, including any being delivered. */
    long depth(String endpoint) throws IOException;
}
