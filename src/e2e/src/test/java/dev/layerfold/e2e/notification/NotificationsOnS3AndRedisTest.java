package dev.layerfold.e2e.notification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.client.Skopeo;
import dev.layerfold.e2e.distributed.Backends;
import dev.layerfold.e2e.distributed.LayerfoldNode;
import dev.layerfold.e2e.distributed.LayerfoldNodes;
import dev.layerfold.e2e.oci.Descriptor;
import dev.layerfold.e2e.oci.ImageWriter;
import dev.layerfold.e2e.oci.ImageWriter.Platform;
import dev.layerfold.e2e.oci.OciLayout;
import dev.layerfold.e2e.process.RegistryProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two registry processes on one bucket and one Redis, both configured with the same endpoint: every
 * event either of them queues reaches the endpoint once, whichever process delivers it.
 */
class NotificationsOnS3AndRedisTest {

    private static final Platform AMD64 = new Platform("linux", "amd64");
    private static final String REPOSITORY = "e2e/notify/two-nodes";
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final Skopeo skopeo = Skopeo.onPath();
    private final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void eachEventOfEitherProcessReachesTheEndpointOnce(@TempDir Path work) throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.start()) {
            Map<String, String> properties = new HashMap<>(Backends.newS3AndRedis());
            properties.put("layerfold.notifications.poll-interval", "200ms");
            properties.put("layerfold.notifications.endpoints[0].name", "hook");
            properties.put("layerfold.notifications.endpoints[0].url", receiver.url("/hook"));
            try (LayerfoldNodes nodes = LayerfoldNodes.start(List.of(work.resolve("first"), work.resolve("second")), properties)) {
                RegistryProcess first = nodes.get(0).process();
                RegistryProcess second = nodes.get(1).process();
                push(work, first, "from-first", 1);
                push(work, second, "from-second", 3);
                pull(work, second, "from-first");
                pull(work, first, "from-second");

                awaitEmptyOutbox(nodes);
                List<JsonNode> events = new ArrayList<>();
                for (WebhookReceiver.Received request : receiver.received()) {
                    json.readTree(request.body()).get("events").forEach(events::add);
                }
                assertThat(events).extracting(event -> event.get("id").asString()).as("event ids").doesNotHaveDuplicates();
                assertThat(events).filteredOn(event -> event.get("action").asString().equals("push"))
                        .extracting(event -> event.get("target").get("tag").asString())
                        .containsExactlyInAnyOrder("from-first", "from-second");
                assertThat(events).filteredOn(event -> event.get("action").asString().equals("pull"))
                        .extracting(event -> event.get("request").get("host").asString())
                        .contains(first.hostAndPort(), second.hostAndPort());
                assertThat(instanceIds(events)).as("both processes' events").hasSize(2);
                double delivered = 0;
                for (LayerfoldNode node : nodes) {
                    delivered += metric(node.process(), "layerfold_notifications_events_delivered_total");
                }
                assertThat(delivered).as("events delivered by the two processes together").isEqualTo(events.size());
            }
        }
    }

    private static List<String> instanceIds(List<JsonNode> events) {
        return events.stream().map(event -> event.get("source").get("instanceID").asString()).distinct().toList();
    }

    private void push(Path work, RegistryProcess registry, String tag, long seed) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve("push-" + tag));
        ImageWriter images = new ImageWriter(layout);
        Descriptor manifest = images.image(AMD64, List.of(images.layer(seed, 3, 20_000), images.layer(seed + 1, 2, 5_000)));
        layout.tag(tag, manifest);
        skopeo.copy(layout.skopeoReference(tag), "docker://" + registry.hostAndPort() + "/" + REPOSITORY + ":" + tag,
                "--dest-tls-verify=false", "--preserve-digests");
    }

    private void pull(Path work, RegistryProcess registry, String tag) throws Exception {
        OciLayout layout = OciLayout.create(work.resolve("pull-" + tag));
        skopeo.copy("docker://" + registry.hostAndPort() + "/" + REPOSITORY + ":" + tag, layout.skopeoReference(tag),
                "--src-tls-verify=false", "--preserve-digests");
    }

    /** Until both processes have written their pull events and the shared outbox has none left. */
    private void awaitEmptyOutbox(LayerfoldNodes nodes) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (true) {
            double queued = 0;
            double delivered = 0;
            double depth = 0;
            for (LayerfoldNode node : nodes) {
                queued += metric(node.process(), "layerfold_notifications_events_queued_total");
                delivered += metric(node.process(), "layerfold_notifications_events_delivered_total");
                depth += metric(node.process(), "layerfold_notifications_outbox_depth");
            }
            if (queued > 0 && queued == delivered && depth == 0) {
                return;
            }
            assertThat(Instant.now()).as("queued %s, delivered %s, depth %s", queued, delivered, depth).isBefore(deadline);
            Thread.sleep(200);
        }
    }

    private double metric(RegistryProcess registry, String name) throws Exception {
        String scrape = http.send(HttpRequest.newBuilder(registry.managementUri().resolve("/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher sample = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*endpoint=\"hook\"[^}]*} (\\S+)$").matcher(scrape);
        assertThat(sample.find()).as("%s in the scrape of %s", name, registry).isTrue();
        return Double.parseDouble(sample.group(1));
    }
}
