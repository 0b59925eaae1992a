package dev.layerfold.server;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.gc.*}: the garbage collector. Every property also comes from the environment,
 * e.g. {@code LAYERFOLD_GC_GRACE}.
 *
 * @param interval            how often a collection runs (on S3 + Redis by one process at a time); 0 runs none
 *                            on a schedule (the endpoint still runs one)
 * @param grace               blobs are kept this long after their last upload, mount or reference: longer
 *                            than any push takes between its first blob and its manifest
 * @param deletesPerSecond    at most this many deletes a second, so clients do not notice the collector
 * @param unreferencedFileAge deduplicated files no layer references are forgotten once stored this long
 */
@ConfigurationProperties("layerfold.gc")
public record GcProperties(
        @DefaultValue("1h") Duration interval,
        @DefaultValue("24h") Duration grace,
        @DefaultValue("50") double deletesPerSecond,
        @DefaultValue("1h") Duration unreferencedFileAge) {
}
