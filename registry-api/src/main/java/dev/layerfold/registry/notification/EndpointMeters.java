package dev.layerfold.registry.notification;

import dev.layerfold.storage.notification.NotificationOutbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;

/**
 * The metrics of one endpoint, tagged with its name: events queued, delivered, failed (counted once per
 * failed attempt) and dropped (by reason), the outbox's depth, and the latency from an event to its
 * delivery.
 */
record EndpointMeters(Counter queued, Counter delivered, Counter failed, Counter droppedFull, Counter droppedUnwritten,
                      Counter droppedBufferFull, Timer latency) {

    static EndpointMeters register(MeterRegistry registry, String endpoint, NotificationOutbox outbox) {
        Gauge.builder("layerfold.notifications.outbox.depth", () -> depth(outbox, endpoint))
                .description("Events in the outbox waiting for the endpoint, including any being delivered")
                .tag("endpoint", endpoint).register(registry);
        return new EndpointMeters(
                counter(registry, "queued", endpoint, "Events written to the outbox for the endpoint"),
                counter(registry, "delivered", endpoint, "Events the endpoint accepted"),
                counter(registry, "failed", endpoint, "Events in deliveries that failed (each retry counts again)"),
                dropped(registry, endpoint, "outbox_full"),
                dropped(registry, endpoint, "outbox_unwritable"),
                dropped(registry, endpoint, "pull_buffer_full"),
                Timer.builder("layerfold.notifications.delivery.latency")
                        .description("From an event to the endpoint's acceptance of it")
                        .tag("endpoint", endpoint).register(registry));
    }

    private static Counter counter(MeterRegistry registry, String what, String endpoint, String description) {
        return Counter.builder("layerfold.notifications.events." + what).description(description)
                .tag("endpoint", endpoint).register(registry);
    }

    private static Counter dropped(MeterRegistry registry, String endpoint, String reason) {
        return Counter.builder("layerfold.notifications.events.dropped")
                .description("Events never delivered: the outbox was full (oldest dropped), could not be written, "
                        + "or the in-memory buffer of pull events was full")
                .tag("endpoint", endpoint).tag("reason", reason).register(registry);
    }

    private static double depth(NotificationOutbox outbox, String endpoint) {
        try {
            return outbox.depth(endpoint);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
