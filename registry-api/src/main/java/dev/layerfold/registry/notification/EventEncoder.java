package dev.layerfold.registry.notification;

import dev.layerfold.registry.api.RegistryEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Events as distribution's notification envelope spells them ({@code notifications/event.go}), so
 * receivers written for distribution read them unchanged. An event is encoded once, when it is queued;
 * a request's body is the queued events joined into one envelope.
 */
final class EventEncoder {

    /** The envelope's media type, as distribution sends it. */
    static final String ENVELOPE_MEDIA_TYPE = "application/vnd.docker.distribution.events.v2+json";

    private final JsonMapper json;
    private final String instanceId;
    private final String hostName;

    /**
     * @param instanceId names this process in every event's {@code source}, new at every start as in distribution
     * @param hostName   this host, for the {@code source.addr}
     */
    EventEncoder(JsonMapper json, String instanceId, String hostName) {
        this.json = json;
        this.instanceId = instanceId;
        this.hostName = hostName;
    }

    /** The event as one JSON object. */
    String encode(RegistryEvent event) {
        RegistryEvent.Requester requester = event.requester();
        Map<String, Object> target = new LinkedHashMap<>();
        event.mediaType().ifPresent(type -> target.put("mediaType", type));
        event.size().ifPresent(size -> target.put("size", size));
        event.digest().ifPresent(digest -> target.put("digest", digest.toString()));
        event.size().ifPresent(size -> target.put("length", size));
        target.put("repository", event.repository().toString());
        event.digest().ifPresent(digest -> target.put("url", requester.origin() + "/v2/" + event.repository() + "/"
                + event.path() + "/" + digest));
        event.tag().ifPresent(tag -> target.put("tag", tag));

        Map<String, Object> request = new LinkedHashMap<>();
        request.put("id", requester.id());
        request.put("addr", requester.address());
        request.put("host", requester.host());
        request.put("method", requester.method());
        request.put("useragent", requester.userAgent());

        Map<String, Object> encoded = new LinkedHashMap<>();
        encoded.put("id", UUID.randomUUID().toString());
        encoded.put("timestamp", event.at().toString());
        encoded.put("action", event.action().wireName());
        encoded.put("target", target);
        encoded.put("request", request);
        encoded.put("actor", requester.actor().isEmpty() ? Map.of() : Map.of("name", requester.actor()));
        encoded.put("source", Map.of("addr", hostName + ":" + requester.localPort(), "instanceID", instanceId));
        return json.writeValueAsString(encoded);
    }

    /** {@code {"events":[...]}} around events encoded by {@link #encode}. */
    static byte[] envelope(List<String> events) {
        return ("{\"events\":[" + String.join(",", events) + "]}").getBytes(StandardCharsets.UTF_8);
    }

    /** When an encoded event happened, for the delivery latency; null if it cannot be read. */
    Instant timestamp(String event) {
        try {
            JsonNode timestamp = json.readTree(event).get("timestamp");
            return timestamp == null ? null : Instant.parse(timestamp.asString());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
