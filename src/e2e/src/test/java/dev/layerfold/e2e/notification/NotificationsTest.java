package dev.layerfold.e2e.notification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Webhooks from the packaged registry to a receiver the test runs: skopeo pushes and pulls, and the
 * receiver gets distribution's envelope, signed; while it is down pushes go on, and once it is back it
 * gets what it missed, in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NotificationsTest {

    private static final Platform AMD64 = new Platform("linux", "amd64");
    private static final String SECRET = "a secret the receiver shares";
    private static final String REPOSITORY = "e2e/notify/image";
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final Skopeo skopeo = Skopeo.onPath();
    private final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();
    private WebhookReceiver receiver;
    private RegistryProcess registry;

    @BeforeAll
    void startReceiverAndRegistry(@TempDir Path data) throws Exception {
        receiver = WebhookReceiver.start();
        registry = LayerfoldProcess.start("256m", data.resolve("data"), Path.of("target", "registry-logs"), List.of(), Map.ofEntries(
                Map.entry("layerfold.notifications.poll-interval", "200ms"),
                Map.entry("layerfold.notifications.endpoints[0].name", "everything"),
                Map.entry("layerfold.notifications.endpoints[0].url", receiver.url("/everything")),
                Map.entry("layerfold.notifications.endpoints[0].secret", SECRET),
                Map.entry("layerfold.notifications.endpoints[0].headers.[X-Receiver-Token]", "token-for-the-receiver"),
                Map.entry("layerfold.notifications.endpoints[0].threshold", "1"),
                Map.entry("layerfold.notifications.endpoints[0].backoff", "200ms"),
                Map.entry("layerfold.notifications.endpoints[0].max-backoff", "1s"),
                Map.entry("layerfold.notifications.endpoints[1].name", "pushes"),
                Map.entry("layerfold.notifications.endpoints[1].url", receiver.url("/pushes")),
                Map.entry("layerfold.notifications.endpoints[1].ignored-actions", "pull,delete"),
                Map.entry("layerfold.notifications.endpoints[2].name", "slow"),
                Map.entry("layerfold.notifications.endpoints[2].url", receiver.url("/slow")),
                Map.entry("layerfold.notifications.endpoints[2].ignored-actions", "pull,delete"),
                Map.entry("layerfold.notifications.endpoints[2].timeout", "1s"),
                Map.entry("layerfold.notifications.endpoints[2].backoff", "200ms"),
                Map.entry("layerfold.notifications.endpoints[2].max-backoff", "1s")));
    }

    @AfterAll
    void stop() throws Exception {
        if (registry != null) {
            registry.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    /** An event as received, with the request that carried it. */
    private record Event(JsonNode event, WebhookReceiver.Received request) {
        String action() {
            return event.get("action").asString();
        }

        JsonNode target() {
            return event.get("target");
        }

        /** The target's tag; null if it has none. */
        String tag() {
            return target().has("tag") ? target().get("tag").asString() : null;
        }
    }

    private List<Event> events(String path) {
        List<Event> events = new ArrayList<>();
        for (WebhookReceiver.Received request : receiver.received()) {
            if (request.path().equals(path)) {
                json.readTree(request.body()).get("events").forEach(event -> events.add(new Event(event, request)));
            }
        }
        return events;
    }

    private Event awaitEvent(String path, Predicate<Event> wanted) throws InterruptedException {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (Instant.now().isBefore(deadline)) {
            for (Event event : events(path)) {
                if (wanted.test(event)) {
                    return event;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no such event at " + path + " within " + PATIENCE + "; received: "
                + events(path).stream().map(Event::event).toList() + "\n" + registry.logTail());
    }

    private static Predicate<Event> pushOf(String tag) {
        return event -> event.action().equals("push") && tag.equals(event.tag());
    }

    private Descriptor push(Path work, String tag, long seed) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve(tag));
        ImageWriter images = new ImageWriter(layout);
        Descriptor manifest = images.image(AMD64, List.of(images.layer(seed, 3, 20_000), images.layer(seed + 1, 2, 5_000)));
        layout.tag(tag, manifest);
        skopeo.copy(layout.skopeoReference(tag), remote(tag), "--dest-tls-verify=false", "--preserve-digests");
        return manifest;
    }

    private String remote(String tag) {
        return "docker://" + registry.hostAndPort() + "/" + REPOSITORY + ":" + tag;
    }

    private static String hmac(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    @Test
    void pushPullAndDeleteArriveInDistributionsEnvelopeSigned(@TempDir Path work) throws Exception {
        Descriptor manifest = push(work, "v1", 1);

        Event pushed = awaitEvent("/everything", pushOf("v1"));
        JsonNode target = pushed.target();
        assertThat(target.get("mediaType").asString()).isEqualTo(manifest.mediaType());
        assertThat(target.get("digest").asString()).isEqualTo(manifest.digest());
        assertThat(target.get("size").asLong()).isEqualTo(manifest.size());
        assertThat(target.get("length").asLong()).isEqualTo(manifest.size());
        assertThat(target.get("repository").asString()).isEqualTo(REPOSITORY);
        assertThat(target.get("url").asString())
                .isEqualTo("http://" + registry.hostAndPort() + "/v2/" + REPOSITORY + "/manifests/" + manifest.digest());
        JsonNode request = pushed.event().get("request");
        assertThat(request.get("method").asString()).isEqualTo("PUT");
        assertThat(request.get("host").asString()).isEqualTo(registry.hostAndPort());
        assertThat(request.get("addr").asString()).startsWith("127.0.0.1:");
        assertThat(request.get("useragent").asString()).isNotBlank();
        assertThat(request.get("id").asString()).isNotBlank();
        assertThat(pushed.event().get("id").asString()).isNotBlank();
        assertThat(Instant.parse(pushed.event().get("timestamp").asString())).isBefore(Instant.now().plusSeconds(1));
        assertThat(pushed.event().get("actor").isObject()).isTrue();
        assertThat(pushed.event().get("source").get("instanceID").asString()).isNotBlank();
        assertThat(pushed.event().get("source").get("addr").asString()).endsWith(":" + registry.baseUri().getPort());

        WebhookReceiver.Received delivery = pushed.request();
        assertThat(delivery.headers()).containsEntry("content-type", "application/vnd.docker.distribution.events.v2+json")
                .containsEntry("x-receiver-token", "token-for-the-receiver")
                .containsEntry("x-layerfold-signature", hmac(delivery.body()));

        OciLayout pulled = OciLayout.create(work.resolve("pulled"));
        skopeo.copy(remote("v1"), pulled.skopeoReference("v1"), "--src-tls-verify=false", "--preserve-digests");
        Event manifestPull = awaitEvent("/everything", event -> event.action().equals("pull")
                && manifest.digest().equals(event.target().get("digest").asString()));
        assertThat(manifestPull.target().get("tag").asString()).isEqualTo("v1");
        assertThat(manifestPull.event().get("request").get("method").asString()).isEqualTo("GET");
        JsonNode manifestJson = json.readTree(pulled.readBlob(manifest.digest()));
        for (JsonNode layer : manifestJson.get("layers")) {
            Event blobPull = awaitEvent("/everything", event -> event.action().equals("pull")
                    && layer.get("digest").asString().equals(event.target().get("digest").asString()));
            assertThat(blobPull.target().get("size").asLong()).isEqualTo(layer.get("size").asLong());
            assertThat(blobPull.target().get("url").asString()).endsWith("/v2/" + REPOSITORY + "/blobs/" + layer.get("digest").asString());
        }

        HttpResponse<Void> deleted = http.send(HttpRequest.newBuilder(
                registry.baseUri().resolve("/v2/" + REPOSITORY + "/manifests/v1")).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        assertThat(deleted.statusCode()).isEqualTo(202);
        Event tagDeleted = awaitEvent("/everything", event -> event.action().equals("delete"));
        assertThat(tagDeleted.target().get("tag").asString()).isEqualTo("v1");
        assertThat(tagDeleted.target().get("repository").asString()).isEqualTo(REPOSITORY);
        assertThat(tagDeleted.event().get("request").get("method").asString()).isEqualTo("DELETE");

        // The endpoint that ignores pulls and deletes got the push, and only pushes.
        awaitEvent("/pushes", pushOf("v1"));
        assertThat(events("/pushes")).extracting(Event::action).containsOnly("push");
        assertThat(receiver.received()).filteredOn(received -> received.path().equals("/pushes"))
                .allSatisfy(received -> assertThat(received.headers()).doesNotContainKey("x-layerfold-signature"));
    }

    @Test
    void aReceiverDownForAWhileGetsWhatItMissedInOrderWhilePushesGoOn(@TempDir Path work) throws Exception {
        push(work, "before", 10);
        awaitEvent("/everything", pushOf("before"));

        receiver.down();
        List<Duration> pushTimes = new ArrayList<>();
        List<String> tags = List.of("while-down-1", "while-down-2", "while-down-3");
        for (int i = 0; i < tags.size(); i++) {
            Instant start = Instant.now();
            push(work, tags.get(i), 20 + 2L * i);
            pushTimes.add(Duration.between(start, Instant.now()));
        }
        awaitMetric("layerfold_notifications_events_failed_total", "everything", value -> value > 0);
        assertThat(metric("layerfold_notifications_outbox_depth", "everything"))
                .as("events waiting while the receiver is down").isGreaterThanOrEqualTo(tags.size());
        System.out.println("pushes while the receiver was down took " + pushTimes);

        receiver.up();
        for (String tag : tags) {
            awaitEvent("/everything", pushOf(tag));
        }
        List<String> pushedTags = events("/everything").stream().filter(event -> event.action().equals("push"))
                .map(Event::tag).filter(tags::contains).distinct().toList();
        assertThat(pushedTags).as("in the order of the pushes").containsExactlyElementsOf(tags);
        awaitMetric("layerfold_notifications_outbox_depth", "everything", value -> value == 0);
        assertThat(metric("layerfold_notifications_events_delivered_total", "everything")).isGreaterThanOrEqualTo(4);
        assertThat(metric("layerfold_notifications_events_dropped_total", "everything")).isZero();
    }

    @Test
    void aReceiverSlowerThanItsTimeoutIsRetriedWithoutHoldingUpTheOthers(@TempDir Path work) throws Exception {
        receiver.delay("/slow", Duration.ofSeconds(3));
        double deliveredBefore = metric("layerfold_notifications_events_delivered_total", "slow");
        push(work, "for-slow", 40);
        awaitMetric("layerfold_notifications_events_failed_total", "slow", value -> value > 0);
        // The other endpoints have the push while the slow one's deliveries time out.
        awaitEvent("/everything", pushOf("for-slow"));
        awaitEvent("/pushes", pushOf("for-slow"));
        assertThat(metric("layerfold_notifications_events_delivered_total", "slow")).isEqualTo(deliveredBefore);

        receiver.delay("/slow", Duration.ZERO);
        awaitMetric("layerfold_notifications_events_delivered_total", "slow", value -> value > deliveredBefore);
        awaitMetric("layerfold_notifications_outbox_depth", "slow", value -> value == 0);
    }

    private double metric(String name, String endpoint) throws Exception {
        String scrape = http.send(HttpRequest.newBuilder(registry.managementUri().resolve("/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$").matcher(scrape);
        double sum = 0;
        boolean found = false;
        while (sample.find()) {
            if (sample.group(1).contains("endpoint=\"" + endpoint + "\"")) {
                sum += Double.parseDouble(sample.group(2));
                found = true;
            }
        }
        assertThat(found).as("%s{endpoint=\"%s\"} in %s", name, endpoint, URI.create("/actuator/prometheus")).isTrue();
        return sum;
    }

    private void awaitMetric(String name, String endpoint, Predicate<Double> wanted) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        double value = metric(name, endpoint);
        while (!wanted.test(value)) {
            assertThat(Instant.now()).as("%s{endpoint=\"%s\"} is still %s", name, endpoint, value).isBefore(deadline);
            Thread.sleep(100);
            value = metric(name, endpoint);
        }
    }
}
