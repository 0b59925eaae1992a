package dev.layerfold.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * Every environment variable the deployment files in {@code infra/} (the Terraform module and the Helm
 * chart) hand the registry is a real configuration key: {@code LAYERFOLD_*} names bind to a property of
 * one of the application's {@code @ConfigurationProperties} classes (or a placeholder of
 * {@code application.properties}), and {@code MANAGEMENT_*} / {@code SERVER_*} names to a Spring Boot
 * property. A key renamed in the code, or mistyped in infra/, fails here instead of being ignored in
 * production. Names are matched the way Spring Boot maps environment variables (its own
 * {@link SystemEnvironmentPropertySource} mapping: {@code LAYERFOLD_STORAGE_S3_PATH_STYLE} binds
 * {@code layerfold.storage.s3.path-style}).
 */
class InfraConfigurationKeysTest {

    private static final Pattern LAYERFOLD_NAME = Pattern.compile("\\b(LAYERFOLD_[A-Z0-9_]*[A-Z0-9])\\b");
    private static final Pattern SPRING_NAME = Pattern.compile("\\b((?:MANAGEMENT|SERVER)_[A-Z0-9_]*[A-Z0-9])\\b");
    private static final Set<String> SCANNED = Set.of(".tf", ".hcl", ".yaml", ".yml", ".tpl");
    /** Words of that shape that are not variables: the outcome tag value of http.server.requests. */
    private static final Set<String> NOT_VARIABLES = Set.of("SERVER_ERROR");

    @Test
    void everyLayerfoldVariableInInfraIsAConfigurationKey() throws IOException {
        Map<String, Set<Path>> used = namesIn(infra(), LAYERFOLD_NAME);
        assertThat(used).as("LAYERFOLD_* names found in infra/").containsKeys(
                "LAYERFOLD_STORAGE_BLOB", "LAYERFOLD_STORAGE_S3_BUCKET", "LAYERFOLD_STORAGE_REDIS_URL", "LAYERFOLD_AUTH_MODE");

        Keys keys = layerfoldKeys();
        assertThat(keys.leaves).as("properties found on the classpath")
                .contains("layerfold.storage.redis.url", "layerfold.auth.htpasswd", "layerfold.dedup.workers", "layerfold.api.max-page-size");
        Set<String> placeholders = placeholderNames();

        List<String> unknown = new ArrayList<>();
        used.forEach((name, files) -> {
            if (!placeholders.contains(name) && !keys.binds(name)) {
                unknown.add(name + " (in " + files + ")");
            }
        });
        assertThat(unknown).as("LAYERFOLD_* names in infra/ that no configuration property binds").isEmpty();
    }

    @Test
    void everySpringVariableInInfraIsASpringBootKey() throws IOException {
        Map<String, Set<Path>> used = namesIn(infra(), SPRING_NAME);
        assertThat(used).containsKeys("MANAGEMENT_SERVER_PORT", "MANAGEMENT_SERVER_ADDRESS");
        Set<String> spring = springBootKeys();
        assertThat(spring).contains("management.server.port");

        List<String> unknown = new ArrayList<>();
        used.keySet().removeAll(NOT_VARIABLES);
        used.forEach((name, files) -> {
            ConfigurationPropertySource source = source(name);
            if (spring.stream().noneMatch(key -> source.getConfigurationProperty(ConfigurationPropertyName.of(key)) != null)) {
                unknown.add(name + " (in " + files + ")");
            }
        });
        assertThat(unknown).as("MANAGEMENT_* / SERVER_* names in infra/ that no Spring Boot property binds").isEmpty();
    }

    @Test
    void aRenamedKeyWouldFail() {
        Keys keys = layerfoldKeys();
        assertThat(keys.binds("LAYERFOLD_STORAGE_S3_PATH_STYLE")).isTrue();
        assertThat(keys.binds("LAYERFOLD_AUTH_GROUPS_TEAMA")).isTrue();
        assertThat(keys.binds("LAYERFOLD_AUTH_ACCESS_0_USERS")).isTrue();
        assertThat(keys.binds("LAYERFOLD_STORAGE_S3_BUCKETS")).isFalse();
        assertThat(keys.binds("LAYERFOLD_STORAGE_REDIS_URI")).isFalse();
        assertThat(keys.binds("LAYERFOLD_AUTH_ACCESS_0_USER")).isFalse();
    }

    private static Path infra() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("infra"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("a folder infra/ above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir.resolve("infra");
    }

    private static Map<String, Set<Path>> namesIn(Path infra, Pattern pattern) throws IOException {
        Map<String, Set<Path>> names = new TreeMap<>();
        try (Stream<Path> files = Files.walk(infra)) {
            for (Path file : files.filter(Files::isRegularFile).filter(InfraConfigurationKeysTest::scanned).toList()) {
                Matcher m = pattern.matcher(Files.readString(file));
                while (m.find()) {
                    names.computeIfAbsent(m.group(1), n -> new TreeSet<>()).add(infra.relativize(file));
                }
            }
        }
        return names;
    }

    private static boolean scanned(Path file) {
        String name = file.getFileName().toString();
        return !file.toString().contains("/.terraform/") && SCANNED.stream().anyMatch(name::endsWith);
    }

    /** Names like {@code ${LAYERFOLD_PORT:5000}} that application.properties reads itself. */
    private static Set<String> placeholderNames() throws IOException {
        Set<String> names = new TreeSet<>();
        try (InputStream in = InfraConfigurationKeysTest.class.getResourceAsStream("/application.properties")) {
            assertThat(in).isNotNull();
            Matcher m = Pattern.compile("\\$\\{(LAYERFOLD_[A-Z0-9_]+)").matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static ConfigurationPropertySource source(String environmentVariable) {
        var env = new SystemEnvironmentPropertySource("env", Map.of(environmentVariable, "x"));
        return ConfigurationPropertySources.from(env).iterator().next();
    }

    /** Property names of the application's configuration classes: leaves, and maps that take any key. */
    private record Keys(Set<String> leaves, Set<String> maps) {

        boolean binds(String environmentVariable) {
            // The documented form (dots and dashes to underscores, [i] to _i, upper case), or whatever
            // else Spring's own mapping of an environment variable accepts.
            if (leaves.stream().map(Keys::environmentForm).anyMatch(environmentVariable::equals)) {
                return true;
            }
            ConfigurationPropertySource source = source(environmentVariable);
            for (String leaf : leaves) {
                ConfigurationProperty property = source.getConfigurationProperty(ConfigurationPropertyName.of(leaf));
                if (property != null) {
                    return true;
                }
            }
            // A map takes any key below it: LAYERFOLD_AUTH_GROUPS_<GROUP> (an environment variable
            // cannot say more about the key than that it is there).
            for (String map : maps) {
                String prefix = map.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_') + "_";
                if (environmentVariable.startsWith(prefix) && environmentVariable.length() > prefix.length()) {
                    return true;
                }
            }
            return false;
        }

        static String environmentForm(String property) {
            return property.replaceAll("\\[(\\d+)]", ".$1").replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
        }
    }

    private static Keys layerfoldKeys() {
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        Set<String> leaves = new TreeSet<>();
        Set<String> maps = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.layerfold")) {
            Class<?> type = load(candidate.getBeanClassName());
            ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
            String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
            walk(prefix, type, leaves, maps);
        }
        return new Keys(leaves, maps);
    }

    private static void walk(String prefix, Class<?> type, Set<String> leaves, Set<String> maps) {
        assertThat(type.isRecord()).as(type + ": configuration classes are records; teach this test JavaBeans if one is not").isTrue();
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            Class<?> raw = component.getType();
            Type generic = component.getGenericType();
            if (Map.class.isAssignableFrom(raw)) {
                maps.add(name);
            } else if (Collection.class.isAssignableFrom(raw)) {
                Class<?> element = typeArgument(generic);
                if (element.isRecord()) {
                    for (int i = 0; i < 10; i++) {
                        walk(name + "[" + i + "]", element, leaves, maps);
                    }
                } else {
                    leaves.add(name);
                    for (int i = 0; i < 10; i++) {
                        leaves.add(name + "[" + i + "]");
                    }
                }
            } else if (raw.isRecord()) {
                walk(name, raw, leaves, maps);
            } else {
                leaves.add(name);
            }
        }
    }

    private static Class<?> typeArgument(Type generic) {
        Type argument = ((ParameterizedType) generic).getActualTypeArguments()[0];
        return argument instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) argument;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** Spring Boot's own keys, from the configuration metadata its jars ship. */
    private static Set<String> springBootKeys() throws IOException {
        Set<String> names = new TreeSet<>();
        Pattern name = Pattern.compile("\"name\"\\s*:\\s*\"((?:management|server)\\.[^\"]+)\"");
        for (String resource : List.of("META-INF/spring-configuration-metadata.json", "META-INF/additional-spring-configuration-metadata.json")) {
            Enumeration<URL> urls = InfraConfigurationKeysTest.class.getClassLoader().getResources(resource);
            while (urls.hasMoreElements()) {
                try (InputStream in = urls.nextElement().openStream()) {
                    Matcher m = name.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    while (m.find()) {
                        names.add(m.group(1));
                    }
                }
            }
        }
        return names;
    }
}
