package dev.layerfold.registry.notification;

import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.storage.notification.NotificationOutbox;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes events to the outbox, for each endpoint that wants them. Pushes and deletes are written before
 * the client is answered, so an acknowledged change is never missing from the outbox. Pulls, which are
 * many and change nothing, wait in a bounded buffer and are written in batches by a thread of their
 * own, so a pull costs no store write; the buffer full (a store too slow for the pulls), pull events
 * are dropped and counted, and a crash loses those still in it.
 */
final class OutboxWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OutboxWriter.class);
    private static final int BATCH = 1_000;

    /** An encoded event and the endpoints it goes to. */
    private record Pending(String event, List<NotificationProperties.Endpoint> endpoints) {
    }

    private final List<NotificationProperties.Endpoint> endpoints;
    private final NotificationOutbox outbox;
    private final EventEncoder encoder;
    private final Map<String, EndpointMeters> meters;
    private final Consumer<String> wake;
    private final BlockingQueue<Pending> pulls;
    private final Thread pullWriter;

    /** @param wake called with an endpoint's name once events for it are in the outbox */
    OutboxWriter(List<NotificationProperties.Endpoint> endpoints, NotificationOutbox outbox, EventEncoder encoder,
                 Map<String, EndpointMeters> meters, Consumer<String> wake, int pullBuffer) {
        this.endpoints = endpoints;
        this.outbox = outbox;
        this.encoder = encoder;
        this.meters = meters;
        this.wake = wake;
        this.pulls = new ArrayBlockingQueue<>(pullBuffer);
        this.pullWriter = Thread.ofVirtual().name("notification-pull-writer").start(this::writePulls);
    }

    void write(RegistryEvent event) {
        List<NotificationProperties.Endpoint> wanting = endpoints.stream().filter(endpoint -> endpoint.wants(event)).toList();
        if (wanting.isEmpty()) {
            return;
        }
        Pending pending;
        try {
            pending = new Pending(encoder.encode(event), wanting);
        } catch (RuntimeException e) {
            log.warn("could not encode a {} event of {}; it is not sent", event.action().wireName(), event.repository(), e);
            return;
        }
        if (event.action() != RegistryEvent.Action.PULL) {
            write(List.of(pending));
        } else if (!pulls.offer(pending)) {
            wanting.forEach(endpoint -> meters.get(endpoint.name()).droppedBufferFull().increment());
        }
    }

    private void write(List<Pending> batch) {
        Map<NotificationProperties.Endpoint, List<String>> byEndpoint = new LinkedHashMap<>();
        for (Pending pending : batch) {
            pending.endpoints().forEach(endpoint -> byEndpoint.computeIfAbsent(endpoint, e -> new ArrayList<>()).add(pending.event()));
        }
        List<NotificationOutbox.OutboxAppend> appends = new ArrayList<>();
        byEndpoint.forEach((endpoint, events) -> appends.add(new NotificationOutbox.OutboxAppend(endpoint.name(), events,
                endpoint.maxQueued())));
        try {
            Map<String, Long> dropped = outbox.append(appends);
            byEndpoint.forEach((endpoint, events) -> {
                EndpointMeters endpointMeters = meters.get(endpoint.name());
                endpointMeters.queued().increment(events.size());
                endpointMeters.droppedFull().increment(dropped.getOrDefault(endpoint.name(), 0L));
                wake.accept(endpoint.name());
            });
        } catch (Exception e) {
            byEndpoint.forEach((endpoint, events) -> meters.get(endpoint.name()).droppedUnwritten().increment(events.size()));
            log.warn("could not write {} event(s) for notification endpoints {} to the outbox: {}", batch.size(),
                    byEndpoint.keySet().stream().map(NotificationProperties.Endpoint::name).toList(), e.toString());
        }
    }

    private void writePulls() {
        List<Pending> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(pulls.take());
                pulls.drainTo(batch, BATCH - 1);
                write(batch);
                batch.clear();
            }
        } catch (InterruptedException stopping) {
            pulls.drainTo(batch);
            write(batch);
        }
    }

    /** Writes the pull events still buffered, then stops. */
    @Override
    public void close() throws InterruptedException {
        pullWriter.interrupt();
        pullWriter.join();
    }
}
