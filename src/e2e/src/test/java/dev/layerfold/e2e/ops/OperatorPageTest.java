package dev.layerfold.e2e.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.process.Executables;
import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator's page ({@code /actuator/operator}) in a real headless Chromium (Debian's package),
 * against the packaged registry after {@link OpsWorkload}: it shows every
 * repository with the figures the JSON endpoint gives, the chart, the backlog, the pull sources, the
 * restores and the collection; a screenshot is kept as target/operator-page.png.
 */
class OperatorPageTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path work;

    @Test
    void thePageShowsEveryRepositoryWithTheFiguresOfTheJsonInARealBrowser() throws Exception {
        Path chromium = Executables.find("chromium", List.of(), "apt-get install chromium (Debian's package)");
        Path target = Path.of("target").toAbsolutePath();
        try (RegistryProcess registry = LayerfoldProcess.start("256m", work.resolve("data"), target.resolve("registry-logs"))) {
            OpsWorkload workload = new OpsWorkload(registry.baseUri(), registry.managementUri());
            workload.run();
            URI page = registry.managementUri().resolve("/actuator/operator");
            JsonNode usage = usageJson(registry.managementUri());

            // Chromium's --dump-dom and --screenshot need scripts on (they run their own); the page has none.
            String dom = run(chromium, List.of("--dump-dom", page.toString()));
            Path screenshot = target.resolve("operator-page.png");
            Files.deleteIfExists(screenshot);
            run(chromium, List.of("--hide-scrollbars", "--window-size=1280,1700",
                    "--screenshot=" + screenshot, page.toString()));

            assertThat(dom).contains("Layerfold: operator's page").contains("<svg").contains("Last collections")
                    .doesNotContain("<script");
            JsonNode totals = usage.path("totals");
            assertThat(dom).as("the saving in all").contains(bytes(totals.path("savedBytes").asLong()))
                    .contains(bytes(totals.path("storedBytes").asLong()));
            for (JsonNode repository : usage.path("repositories")) {
                String row = "<tr><td>" + repository.path("repository").asString() + "</td><td>" + bytes(repository.path("logicalBytes").asLong())
                        + "</td><td>" + bytes(repository.path("storedBytes").asLong()) + "</td>";
                assertThat(dom).as("the row of " + repository.path("repository").asString()).contains(row)
                        .contains(bytes(repository.path("freedIfDeletedBytes").asLong()));
            }
            assertThat(usage.path("repositories")).hasSize(workload.pushed().size());
            assertThat(dom).containsPattern("<td>rebuilt</td><td>\\d+</td>").contains("restores");
            assertThat(screenshot).isRegularFile();
            assertThat(Files.size(screenshot)).as("a rendered page, not a blank one").isGreaterThan(20_000);
        }
    }

    private static JsonNode usageJson(URI management) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(management.resolve("/actuator/usage?order=stored&limit=100"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            return JSON.readTree(answer.body());
        }
    }

    /** Runs headless Chromium on the arguments; returns what it printed. */
    private String run(Path chromium, List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + work.resolve("chromium-profile")));
        command.addAll(arguments);
        Path output = work.resolve("chromium-out.txt");
        Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
                .redirectError(work.resolve("chromium-err.txt").toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish within 120 s: " + Files.readString(work.resolve("chromium-err.txt")));
        }
        assertThat(process.exitValue()).as(Files.readString(work.resolve("chromium-err.txt"))).isZero();
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    /** Bytes as the page writes them (binary units, one decimal). */
    private static String bytes(long bytes) {
        if (Math.abs(bytes) < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

}
