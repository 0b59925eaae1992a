package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.layerfold.storage.blob.BlobStore;
import dev.layerfold.storage.metadata.MetadataStore;
import dev.layerfold.storage.s3.S3BlobStore;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Which backends the properties select and how they bind; the backends themselves are tested in storage. */
class BackendConfigurationTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(BackendConfiguration.class);

    @Test
    void s3BlobBackendIsConfiguredFromEnvironmentVariables() {
        context.withInitializer(application -> application.getEnvironment().getPropertySources().addFirst(
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("LAYERFOLD_STORAGE_BLOB", "s3",
                                        "LAYERFOLD_STORAGE_S3_ENDPOINT", "http://minio:9000",
                                        "LAYERFOLD_STORAGE_S3_BUCKET", "layers",
                                        "LAYERFOLD_STORAGE_S3_PATH_STYLE", "true",
                                        "LAYERFOLD_STORAGE_S3_ACCESS_KEY", "key",
                                        "LAYERFOLD_STORAGE_S3_SECRET_KEY", "secret",
                                        "LAYERFOLD_STORAGE_S3_PART_SIZE", "16MB"))))
                .run(started -> {
                    assertThat(started).hasNotFailed().hasSingleBean(S3BlobStore.class)
                            .doesNotHaveBean(MetadataStore.class);
                    var settings = started.getBean(BackendConfiguration.S3Properties.class).settings();
                    assertThat(settings.endpoint()).isEqualTo(URI.create("http://minio:9000"));
                    assertThat(settings.bucket()).isEqualTo("layers");
                    assertThat(settings.pathStyle()).isTrue();
                    assertThat(settings.accessKey()).isEqualTo("key");
                    assertThat(settings.secretKey()).isEqualTo("secret");
                    assertThat(settings.partSize()).isEqualTo(16 * 1024 * 1024);
                    assertThat(settings.presignedRedirects()).isFalse();
                });
    }

    @Test
    void emptyCredentialsMeanTheDefaultAwsCredentialChain() {
        context.withPropertyValues("layerfold.storage.blob=s3", "layerfold.storage.s3.bucket=layers",
                        "layerfold.storage.s3.access-key=", "layerfold.storage.s3.secret-key=")
                .run(started -> {
                    var settings = started.getBean(BackendConfiguration.S3Properties.class).settings();
                    assertThat(settings.accessKey()).isNull();
                    assertThat(settings.endpoint()).isNull();
                    assertThat(settings.region()).isEqualTo("us-east-1");
                });
    }

    @Test
    void s3HealthIsDownWhileTheBucketIsUnreachable() {
        context.withPropertyValues("layerfold.storage.blob=s3", "layerfold.storage.s3.bucket=layers",
                        "layerfold.storage.s3.endpoint=http://127.0.0.1:1", "layerfold.storage.s3.path-style=true",
                        "layerfold.storage.s3.access-key=key", "layerfold.storage.s3.secret-key=secret")
                .run(started -> {
                    Health health = started.getBean("s3HealthIndicator", HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("bucket", "layers");
                });
    }

    @Test
    void s3WithoutABucketFailsNamingTheProperty() {
        context.withPropertyValues("layerfold.storage.blob=s3")
                .run(started -> assertThat(started).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("layerfold.storage.s3.bucket"));
    }

    @Test
    void redisMetadataWithoutTheS3BucketFailsSayingWhatToSet() {
        context.withPropertyValues("layerfold.storage.metadata=redis", "layerfold.storage.redis.url=redis://localhost:6379")
                .run(started -> assertThat(started).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("layerfold.storage.blob=s3"));
    }

    @Test
    void redisMetadataWithoutAUrlFailsNamingTheProperty() {
        context.withPropertyValues("layerfold.storage.blob=s3", "layerfold.storage.s3.bucket=layers",
                        "layerfold.storage.metadata=redis")
                .run(started -> assertThat(started).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("LAYERFOLD_STORAGE_REDIS_URL"));
    }

    @Test
    void mistypedBackendFailsNamingTheBackendsThereAre() {
        context.withPropertyValues("layerfold.storage.blob=s3x")
                .run(started -> assertThat(started).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("layerfold.storage.blob=s3x").hasMessageContaining("[filesystem, s3]"));
    }

    @Test
    void embeddedDefaultsLeaveTheseBackendsOut() {
        context.run(started -> assertThat(started).hasNotFailed().doesNotHaveBean(BlobStore.class)
                .doesNotHaveBean(MetadataStore.class));
    }
}
