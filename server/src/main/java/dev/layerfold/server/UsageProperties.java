package dev.layerfold.server;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code layerfold.usage.*}: the per-repository accounting's metrics. Every property also comes from
 * the environment, e.g. {@code LAYERFOLD_USAGE_TOP_REPOSITORIES}.
 *
 * @param topRepositories repositories exported as metrics, the largest by stored bytes (bounds the
 *                        metrics' cardinality; the JSON endpoint pages through all)
 * @param refresh         how often the metrics are read again from the store, and an incomplete store
 *                        (a Redis that lost it, a file older than the accounting) is rebuilt
 */
@ConfigurationProperties("layerfold.usage")
public record UsageProperties(
        @DefaultValue("10") int topRepositories,
        @DefaultValue("30s") Duration refresh) {

    public UsageProperties {
        if (topRepositories < 0) {
            throw new IllegalArgumentException("layerfold.usage.top-repositories must be 0 or more, not " + topRepositories);
        }
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("layerfold.usage.refresh must be positive, not " + refresh);
        }
    }
}
