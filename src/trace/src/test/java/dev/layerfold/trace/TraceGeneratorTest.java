package dev.layerfold.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceGeneratorTest {

    private static final GeneratorSettings HALF_HOUR = settings("duration", Duration.ofMinutes(30));

    private static GeneratorSettings settings(String name, Object value) {
        return GeneratorSettings.DEFAULTS.with(Map.of(name, value.toString()));
    }

    @Test
    void theTraceHasTheShapeItsSettingsDescribe() {
        SyntheticTrace trace = TraceGenerator.generate(HALF_HOUR);
        List<TraceRecord> records = trace.records();

        long gets = records.stream().filter(TraceRecord::isGet).count();
        long puts = records.size() - gets;
        assertThat((double) gets / puts).as("GET:PUT").isBetween(18.0, 30.0);
        long manifestGets = records.stream().filter(r -> r.isGet() && r.target().orElseThrow().manifest()).count();
        assertThat((double) manifestGets / records.size()).as("share of manifest GETs").isGreaterThan(0.3);
        List<Long> layerSizes = trace.images().values().stream().flatMap(i -> i.layers().stream())
                .map(SyntheticTrace.Layer::size).distinct().toList();
        assertThat(layerSizes.stream().filter(size -> size < 10_000_000).count())
                .as("most layers under 10 MB").isGreaterThan(layerSizes.size() * 3 / 4);
        assertThat(layerSizes.stream().mapToLong(Long::longValue).max().orElseThrow()).as("a long tail").isGreaterThan(100_000_000);
        assertThat(records).isSortedAccordingTo((a, b) -> a.timestamp().compareTo(b.timestamp()));
    }

    @Test
    void layerGetsFollowTheirClientsManifestGetWithinTheConfiguredDelay() {
        List<TraceRecord> records = TraceGenerator.generate(HALF_HOUR).records();
        Map<String, Instant> lastManifest = new HashMap<>();
        for (TraceRecord record : records) {
            if (!record.isGet()) {
                continue;
            }
            TraceRecord.Target target = record.target().orElseThrow();
            if (target.manifest()) {
                lastManifest.put(record.remoteAddr(), record.timestamp());
            } else {
                Duration after = Duration.between(lastManifest.get(record.remoteAddr()), record.timestamp());
                assertThat(after).isBetween(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameTraceAndAnotherSeedAnother() {
        assertThat(TraceGenerator.generate(HALF_HOUR).records()).isEqualTo(TraceGenerator.generate(HALF_HOUR).records());
        assertThat(TraceGenerator.generate(HALF_HOUR.with(Map.of("seed", "2"))).records())
                .isNotEqualTo(TraceGenerator.generate(HALF_HOUR).records());
    }

    @Test
    void imagesRebuiltFromTheTraceHoldTheLayersTheirPullersGot() {
        SyntheticTrace trace = TraceGenerator.generate(HALF_HOUR);
        TraceImages rebuilt = TraceImages.of(trace.records());

        for (TraceImages.Image image : rebuilt.all()) {
            SyntheticTrace.Image actual = trace.images().get(image.repository() + ":" + image.reference());
            assertThat(actual.layers().stream().map(SyntheticTrace.Layer::digest).toList()).containsAll(image.layers());
        }
    }
}
