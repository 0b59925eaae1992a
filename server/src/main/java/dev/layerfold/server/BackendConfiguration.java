package dev.layerfold.server;

import dev.layerfold.dedup.store.StoredFiles;
import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.lease.Leases;
import dev.layerfold.storage.redis.RedisConnection;
import dev.layerfold.storage.redis.RedisMetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import dev.layerfold.storage.s3.S3Bucket;
import dev.layerfold.storage.s3.S3Settings;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * The backends for running several registry processes over shared storage: blobs in an
 * S3-compatible bucket ({@code layerfold.storage.blob=s3}) and metadata indexed in Redis with its
 * records in that same bucket ({@code layerfold.storage.metadata=redis}, which therefore needs the
 * S3 blob backend). Every property also comes from the environment, e.g.
 * {@code LAYERFOLD_STORAGE_S3_BUCKET} or {@code LAYERFOLD_STORAGE_REDIS_URL}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({BackendConfiguration.S3Properties.class, BackendConfiguration.RedisProperties.class,
        StorageProperties.class})
public class BackendConfiguration {

    /**
     * {@code layerfold.storage.s3.*}.
     *
     * @param endpoint the S3 API endpoint, e.g. {@code http://minio:9000}; leave empty for AWS S3
     * @param region the signing region
     * @param bucket the bucket (it must exist)
     * @param pathStyle {@code true} for MinIO, Ceph and other servers without per-bucket host names
     * @param accessKey the access key; leave both keys empty to use the AWS default credential chain
     * @param secretKey the secret key
     * @param presignedRedirects redirect pulls to presigned URLs of the bucket (the endpoint must then
     *     be reachable by clients)
     * @param partSize size of multipart parts, at least 5MB
     */
    @ConfigurationProperties("layerfold.storage.s3")
    public record S3Properties(URI endpoint, @DefaultValue("us-east-1") String region, String bucket,
                               @DefaultValue("false") boolean pathStyle, String accessKey, String secretKey,
                               @DefaultValue("false") boolean presignedRedirects,
                               @DefaultValue("8MB") DataSize partSize) {

        S3Settings settings() {
            return new S3Settings(endpoint, region, bucket, pathStyle, emptyToNull(accessKey), emptyToNull(secretKey),
                    presignedRedirects, Math.toIntExact(partSize.toBytes()));
        }

        /** Compose files and shells pass unset variables as empty strings. */
        private static String emptyToNull(String value) {
            return value == null || value.isEmpty() ? null : value;
        }
    }

    /**
     * {@code layerfold.storage.redis.*}.
     *
     * @param url {@code redis://[user:password@]host:port[/db]}, or {@code rediss://} for TLS
     * @param cluster {@code true} if the URL names a node of a Redis Cluster
     * @param namespace prefix of every key, so several registries can share one Redis
     */
    @ConfigurationProperties("layerfold.storage.redis")
    public record RedisProperties(String url, @DefaultValue("false") boolean cluster,
                                  @DefaultValue("layerfold") String namespace) {

        public RedisProperties {
            if (url != null && !url.isEmpty() && !url.startsWith("redis://") && !url.startsWith("rediss://")) {
                // Never the URL itself: it may carry a password.
                throw new IllegalArgumentException("layerfold.storage.redis.url must start with redis:// or rediss://");
            }
        }
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "layerfold.storage.blob", havingValue = "s3")
    S3Bucket s3Bucket(S3Properties s3, ObjectProvider<MeterRegistry> registry) {
        MeterRegistry meters = registry.getIfAvailable();
        return S3Bucket.connect(s3.settings(), meters == null ? List.of() : List.of(new S3Metrics(meters)));
    }

    @Bean
    @ConditionalOnProperty(name = "layerfold.storage.blob", havingValue = "s3")
    S3BlobStore s3BlobStore(S3Bucket bucket, S3Properties s3) {
        return new S3BlobStore(bucket, s3.settings());
    }

    /** The {@code s3} component of {@code /actuator/health}. */
    @Bean
    @ConditionalOnProperty(name = "layerfold.storage.blob", havingValue = "s3")
    HealthIndicator s3HealthIndicator(S3Bucket bucket) {
        return () -> health(bucket::checkReachable).withDetail("bucket", bucket.name()).build();
    }

    /** The {@code redis} component of {@code /actuator/health}. */
    @Bean
    @ConditionalOnProperty(name = "layerfold.storage.metadata", havingValue = "redis")
    HealthIndicator redisHealthIndicator(RedisMetadataStore metadata) {
        return () -> health(metadata::checkReachable).build();
    }

    private interface Check {
        void run() throws IOException;
    }

    private static Health.Builder health(Check check) {
        try {
            check.run();
            return Health.up();
        } catch (IOException e) {
            return Health.down(e);
        }
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty(name = "layerfold.storage.metadata", havingValue = "redis")
    RedisMetadataStore redisMetadataStore(RedisProperties redis, ObjectProvider<S3Bucket> bucket, ObjectProvider<BlobStore> blobs,
                                          ObjectProvider<MeterRegistry> registry) throws IOException {
        S3Bucket records = bucket.getIfAvailable();
        if (records == null) {
            throw new IllegalStateException("layerfold.storage.metadata=redis keeps its records in the S3 bucket: "
                    + "also set layerfold.storage.blob=s3 and the layerfold.storage.s3.* properties");
        }
        if (redis.url() == null || redis.url().isBlank()) {
            throw new IllegalStateException("layerfold.storage.metadata=redis needs layerfold.storage.redis.url "
                    + "(env LAYERFOLD_STORAGE_REDIS_URL), e.g. redis://redis:6379");
        }
        // Lettuce's own latency recorder: lettuce_command_completion_seconds{command,remote} and first response.
        Optional<CommandLatencyRecorder> latencies = Optional.ofNullable(registry.getIfAvailable())
                .map(meters -> new MicrometerCommandLatencyRecorder(meters, MicrometerOptions.create()));
        return new RedisMetadataStore(RedisConnection.open(redis.url(), redis.cluster(), latencies), records, redis.namespace(),
                new StoredFiles(blobs.getObject()));
    }

    /**
     * Leases in the Redis of the metadata, for work one process at a time may do across the cluster
     * (sweeping the shared bucket). They close with the metadata store, not as a bean of their own.
     */
    @Bean(destroyMethod = "")
    @ConditionalOnProperty(name = "layerfold.storage.metadata", havingValue = "redis")
    Leases redisLeases(RedisMetadataStore metadata) {
        return metadata.leases();
    }
}
