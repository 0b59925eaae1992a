package dev.layerfold.e2e.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.e2e.process.LayerfoldProcess;
import dev.layerfold.e2e.process.RegistryProcess;
import dev.layerfold.trace.GeneratorSettings;
import dev.layerfold.trace.ReplayReport;
import dev.layerfold.trace.Replayer;
import dev.layerfold.trace.SyntheticTrace;
import dev.layerfold.trace.TraceFile;
import dev.layerfold.trace.TraceGenerator;
import dev.layerfold.trace.TraceRecord;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace replayer against the packaged registry: a short generated trace, written and read back in
 * the IBM format, replayed ten times as fast as recorded. Every request is answered, and the registry's
 * predictor saw every layer GET (its counters by source add up to them).
 */
class TraceReplayTest {

    @TempDir
    Path dir;

    @Test
    void aShortTraceReplaysWithEveryRequestAnsweredAndEveryLayerGetCounted() throws Exception {
        SyntheticTrace trace = TraceGenerator.generate(GeneratorSettings.DEFAULTS.with(Map.of("duration", "PT20S",
                "pullsPerSecond", "2", "repositories", "6", "bases", "2", "clients", "4", "layerSizeMedian", "30000",
                "layerSizeSigma", "1.0", "layerSizeMax", "2000000")));
        Path file = dir.resolve("trace.json");
        TraceFile.write(trace.records(), file);
        List<TraceRecord> records = TraceFile.read(file);
        long manifestGets = records.stream().filter(r -> r.isGet() && r.target().orElseThrow().manifest()).count();
        long layerGets = records.stream().filter(r -> r.isGet() && !r.target().orElseThrow().manifest()).count();

        try (RegistryProcess registry = LayerfoldProcess.start("256m", dir.resolve("data"), dir.resolve("logs"))) {
            ReplayReport report = new Replayer(new Replayer.Options(registry.baseUri(), 10, 1, 16)).replay(records);

            assertThat(report.problems()).isEmpty();
            assertThat(report.count("GET manifest")).isEqualTo(manifestGets);
            assertThat(report.count("GET blob")).isEqualTo(layerGets);
            assertThat(servedBlobs(registry)).isEqualTo(layerGets);
        }
    }

    /** The predictor's count of blob GETs, over every source, from the registry's Prometheus endpoint. */
    private static long servedBlobs(RegistryProcess registry) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(registry.managementUri()
                .resolve("/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
        return (long) metrics.lines().filter(line -> line.startsWith("layerfold_predictor_requests_total{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
