package dev.layerfold.e2e.dedup;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The registry's dedup admin endpoint ({@code /actuator/dedup} on the management port), as an operator or
 * a benchmark calls it: every method takes the management port's base URI.
 */
public final class DedupAdmin {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What {@code GET /actuator/dedup} answers. */
    public record Totals(long backlog, long layersDeduplicated, Map<String, Long> layersIntact, long logicalBytes,
                  long storedBytes, long fileReferences, long uniqueFiles) {

        static Totals from(JsonNode json) {
            Map<String, Long> intact = new TreeMap<>();
            json.path("layersIntact").properties().forEach(reason -> intact.put(reason.getKey(), reason.getValue().asLong()));
            return new Totals(json.path("backlog").asLong(), json.path("layersDeduplicated").asLong(), intact,
                    json.path("logicalBytes").asLong(), json.path("storedBytes").asLong(),
                    json.path("fileReferences").asLong(), json.path("uniqueFiles").asLong());
        }
    }

    private DedupAdmin() {
    }

    public static Totals totals(URI management) throws IOException, InterruptedException {
        return totals(management, null);
    }

    /** As {@link #totals(URI)}, signed in with {@code authorization} (an {@code Authorization} header value; null: none). */
    public static Totals totals(URI management, String authorization) throws IOException, InterruptedException {
        return Totals.from(send(signedIn(HttpRequest.newBuilder(management.resolve("/actuator/dedup")).GET(), authorization)));
    }

    /**
     * Waits (in the registry) until the backlog is empty and returns the totals then; fails if it was not
     * empty within {@code timeout}.
     */
    public static Totals settle(URI management, Duration timeout) throws IOException, InterruptedException {
        return settle(management, timeout, null);
    }

    /** As {@link #settle(URI, Duration)}, signed in with {@code authorization} (null: none), as a registry with sign-in on needs. */
    public static Totals settle(URI management, Duration timeout, String authorization) throws IOException, InterruptedException {
        JsonNode answer = send(signedIn(HttpRequest.newBuilder(management.resolve("/actuator/dedup"))
                .header("Content-Type", "application/json")
                .timeout(timeout.plusSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{\"timeoutSeconds\":" + timeout.toSeconds() + "}")), authorization));
        if (!answer.path("settled").asBoolean()) {
            throw new AssertionError(management + " did not settle dedup within " + timeout + ": " + answer);
        }
        return Totals.from(answer.path("totals"));
    }

    /**
     * The mean time this process took per layer it deduplicated or decided about, from the
     * {@code layerfold.dedup.duration} timer Prometheus scrapes; empty if it did none.
     */
    static OptionalDouble meanSecondsPerLayer(URI management) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            String metrics = http.send(HttpRequest.newBuilder(management.resolve("/actuator/prometheus")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            double seconds = 0;
            double layers = 0;
            for (String line : metrics.lines().toList()) {
                if (line.startsWith("layerfold_dedup_duration_seconds_sum")) {
                    seconds += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                } else if (line.startsWith("layerfold_dedup_duration_seconds_count")) {
                    layers += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return layers == 0 ? OptionalDouble.empty() : OptionalDouble.of(seconds / layers);
        }
    }

    private static HttpRequest.Builder signedIn(HttpRequest.Builder request, String authorization) {
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private static JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException(response.request().method() + " " + response.uri() + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        }
    }
}
