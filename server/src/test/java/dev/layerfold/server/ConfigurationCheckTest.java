package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

class ConfigurationCheckTest {

    private final ConfigurationKeys keys = new ConfigurationKeys();

    @Test
    void aMistypedVariableIsNamedWithTheNearestKey() {
        List<String> problems = problems(Map.of("LAYERFOLD_STORAGE_BLOBS", "s3"), Map.of());

        assertThat(problems).singleElement().asString().contains("LAYERFOLD_STORAGE_BLOBS")
                .contains("layerfold.storage.blob (LAYERFOLD_STORAGE_BLOB)");
    }

    @Test
    void everyKeyTheRegistryReadsPassesInEitherSpelling() {
        assertThat(problems(Map.of("LAYERFOLD_STORAGE_S3_ACCESS_KEY", "k", "LAYERFOLD_AUTH_ACCESS_0_USERS_0", "alice",
                "LAYERFOLD_AUTH_GROUPS_OPS_0", "olga", "LAYERFOLD_PORT", "5000", "LAYERFOLD_MANAGEMENT_ADDRESS", "0.0.0.0",
                "PATH", "/usr/bin"), Map.of(
                "layerfold.storage.s3.access-key", "k", "layerfold.auth.access[3].actions", "pull,push",
                "layerfold.auth.failed-sign-ins.per-user", "5", "layerfold.gc.retention[0].keep-last-tags", "3",
                "layerfold.dedup.hot-pulls", "10", "layerfold.api.max-manifest-size", "4MB"))).isEmpty();
    }

    @Test
    void aMistypedPropertyAndANegativeValueStopTheStart() {
        List<String> problems = problems(Map.of(), Map.of("layerfold.predictor.mdoe", "off", "layerfold.gc.grace", "-1h",
                "layerfold.api.max-manifest-size", "-4MB"));

        assertThat(problems).hasSize(3).anySatisfy(problem -> assertThat(problem).contains("layerfold.predictor.mdoe")
                        .contains("did you mean layerfold.predictor.mode?"))
                .anySatisfy(problem -> assertThat(problem).contains("layerfold.gc.grace is negative"))
                .anySatisfy(problem -> assertThat(problem).contains("layerfold.api.max-manifest-size is negative"));
    }

    @Test
    void theExampleConfigurationFileIsValid() throws Exception {
        // docs/layerfold.example.yml is what operators copy; every key in it must be one the registry reads.
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("ports", Map.of("server.port", "5000",
                "management.server.port", "5001")));
        for (PropertySource<?> source : new YamlPropertySourceLoader().load("example",
                new FileSystemResource(Path.of("..", "docs", "layerfold.example.yml")))) {
            environment.getPropertySources().addLast(source);
        }

        assertThat(ConfigurationCheck.problems(environment, keys)).isEmpty();
    }

    @Test
    void theManagementPlaneOnTheRegistryPortStopsTheStart() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("ports", Map.of("server.port", "5000",
                "management.server.port", "5000")));

        assertThat(ConfigurationCheck.problems(environment, keys)).singleElement().asString()
                .contains("management.server.port").contains("a port of its own");
    }

    private List<String> problems(Map<String, Object> variables, Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("ports", Map.of("server.port", "5000",
                "management.server.port", "5001")));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return ConfigurationCheck.problems(environment, keys);
    }
}
