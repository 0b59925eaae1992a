package dev.layerfold.e2e.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.distributed.Backends;
import dev.layerfold.e2e.process.Executables;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Grafana dashboard in compose/grafana proven against a real Prometheus (Debian's package) that
 * scrapes the packaged registry on S3 + Redis (so the bucket's and Redis's panels have data) under
 * {@link OpsWorkload}: every panel's every query must parse and
 * return something, so a renamed metric or a typo fails the build rather than an operator's night.
 */
class DashboardQueriesTest {

    static final Path DASHBOARD = Path.of("../../compose/grafana/dashboards/layerfold.json");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path work;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void everyPanelQueryParsesAndReturnsSeriesFromARealPrometheus() throws Exception {
        JsonNode dashboard = JSON.readTree(Files.readString(DASHBOARD));
        Path prometheusBinary = Executables.find("prometheus", List.of(), "apt-get install prometheus (Debian's package)");
        Path target = Path.of("target").toAbsolutePath();
        Map<String, String> properties = new HashMap<>(Backends.newS3AndRedis());
        properties.put("layerfold.usage.refresh", "1s");
        try (RegistryProcess registry = LayerfoldProcess.start("256m", work.resolve("data"), target.resolve("registry-logs"),
                List.of(), properties)) {
            int port = freePort();
            Path config = work.resolve("prometheus.yml");
            URI management = registry.managementUri();
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                    scrape_configs:
                      - job_name: layerfold
                        metrics_path: /actuator/prometheus
                        static_configs:
                          - targets: ['%s:%d']
                    """.formatted(management.getHost(), management.getPort()));
            Process prometheus = new ProcessBuilder(prometheusBinary.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + work.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(target.resolve("prometheus.log").toFile()).start();
            try {
                URI api = URI.create("http://127.0.0.1:" + port);
                awaitScraped(api);
                new OpsWorkload(registry.baseUri(), management).run();
                Thread.sleep(5_000); // a few scrapes after the workload, so rates have two samples that differ

                List<String> failures = new ArrayList<>();
                int panels = 0;
                int queries = 0;
                for (JsonNode panel : dashboard.path("panels")) {
                    if (panel.path("type").asString().equals("row")) {
                        continue;
                    }
                    panels++;
                    for (JsonNode panelQuery : panel.path("targets")) {
                        queries++;
                        String expr = panelQuery.path("expr").asString();
                        HttpResponse<String> answer = query(api, expr);
                        JsonNode body = JSON.readTree(answer.body());
                        if (answer.statusCode() != 200 || !body.path("status").asString().equals("success")) {
                            failures.add(panel.path("title").asString() + ": does not parse: " + expr + " -> " + answer.body());
                        } else if (body.path("data").path("result").isEmpty()) {
                            failures.add(panel.path("title").asString() + ": returns nothing: " + expr);
                        }
                    }
                }
                Files.writeString(target.resolve("dashboard-scrape.txt"), http.send(HttpRequest.newBuilder(
                        management.resolve("/actuator/prometheus")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
                Files.writeString(target.resolve("dashboard-queries.txt"), panels + " panels, " + queries + " queries, "
                        + failures.size() + " failing\n" + String.join("\n", failures) + "\n");
                assertThat(failures).as("%d panels, %d queries", panels, queries).isEmpty();
                assertThat(panels).isGreaterThanOrEqualTo(15);
            } finally {
                prometheus.destroy();
                prometheus.waitFor();
            }
        }
    }

    private void awaitScraped(URI api) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            try {
                HttpResponse<String> up = query(api, "up == 1");
                if (up.statusCode() == 200 && !JSON.readTree(up.body()).path("data").path("result").isEmpty()) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // Prometheus is still starting
            }
            Thread.sleep(500);
        }
        throw new AssertionError("Prometheus did not scrape the registry within 60 s; see target/prometheus.log");
    }

    private HttpResponse<String> query(URI api, String expr) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(api.resolve("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
