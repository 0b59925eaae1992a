package dev.layerfold.registry.notification;

import dev.layerfold.registry.api.RegistryEvent;
import dev.layerfold.registry.api.RegistryEventListener;
import dev.layerfold.storage.notification.NotificationOutbox;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The notifications of one process: events the API reports are queued in the outbox for each
 * endpoint that wants them ({@link OutboxWriter}), and a dispatcher per endpoint delivers them
 * ({@link EndpointDispatcher}). Every process runs a dispatcher for every endpoint; the outbox lets one
 * of them at a time deliver each endpoint's events.
 */
public final class Notifications implements RegistryEventListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Notifications.class);

    private final Map<String, EndpointDispatcher> dispatchers = new LinkedHashMap<>();
    /** Absent when no endpoint is configured. */
    private final OutboxWriter writer;

    private Notifications() {
        this.writer = null;
    }

    /** Notifications with no endpoint: every event is ignored at once. */
    static Notifications none() {
        return new Notifications();
    }

    /**
     * @param instanceId names this process: in every event's source, and as the holder of its claims
     */
    public Notifications(NotificationProperties properties, NotificationOutbox outbox, JsonMapper json, MeterRegistry registry,
                         String instanceId, String hostName) {
        EventEncoder encoder = new EventEncoder(json, instanceId, hostName);
        Map<String, EndpointMeters> meters = new LinkedHashMap<>();
        for (NotificationProperties.Endpoint endpoint : properties.endpoints()) {
            EndpointMeters endpointMeters = EndpointMeters.register(registry, endpoint.name(), outbox);
            meters.put(endpoint.name(), endpointMeters);
            dispatchers.put(endpoint.name(), new EndpointDispatcher(endpoint, outbox, encoder, endpointMeters,
                    instanceId, properties.pollInterval(), properties.eventsPerRequest()));
        }
        this.writer = new OutboxWriter(properties.endpoints(), outbox, encoder, meters,
                name -> dispatchers.get(name).wake(), properties.pullBuffer());
        dispatchers.values().forEach(EndpointDispatcher::start);
        properties.endpoints().forEach(endpoint -> log.info("notifying {}", endpoint));
    }

    @Override
    public boolean listening() {
        return writer != null;
    }

    @Override
    public void happened(RegistryEvent event) {
        if (writer == null) {
            return;
        }
        try {
            writer.write(event);
        } catch (RuntimeException e) {
            log.warn("could not queue a {} event of {}", event.action().wireName(), event.repository(), e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (writer != null) {
            writer.close();
        }
        for (EndpointDispatcher dispatcher : dispatchers.values()) {
            dispatcher.close();
        }
    }
}
