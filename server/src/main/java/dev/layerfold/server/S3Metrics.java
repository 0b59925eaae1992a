package dev.layerfold.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * The AWS SDK's own per-call metrics as a Micrometer timer, {@code layerfold.s3.requests{operation,outcome}}
 * (Prometheus: {@code layerfold_s3_requests_seconds_bucket}), with latency buckets for
 * {@code histogram_quantile}: a slow or failing bucket shows as such. Operations are the SDK's (a
 * dozen), so the cardinality is bounded.
 */
final class S3Metrics implements MetricPublisher {

    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

    private final MeterRegistry registry;

    S3Metrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void publish(MetricCollection call) {
        String operation = call.metricValues(CoreMetric.OPERATION_NAME).stream().findFirst().orElse("unknown");
        boolean successful = call.metricValues(CoreMetric.API_CALL_SUCCESSFUL).stream().findFirst().orElse(false);
        call.metricValues(CoreMetric.API_CALL_DURATION).stream().findFirst().ifPresent(duration ->
                Timer.builder("layerfold.s3.requests").description("calls to the bucket, as the AWS SDK timed them (retries included)")
                        .tag("operation", operation).tag("outcome", successful ? "success" : "failure")
                        .serviceLevelObjectives(BUCKETS).register(registry).record(duration));
    }

    @Override
    public void close() {
    }
}
