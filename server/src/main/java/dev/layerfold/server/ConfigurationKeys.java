package dev.layerfold.server;

import dev.layerfold.registry.api.RegistryApiProperties;
import dev.layerfold.registry.auth.AuthProperties;
import dev.layerfold.registry.mirror.MirrorProperties;
import dev.layerfold.registry.notification.NotificationProperties;
import dev.layerfold.registry.proxy.ProxyProperties;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Every {@code layerfold.*} key the registry reads, taken from its configuration records (a new
 * component is a new key with nothing else to update), and the nearest of them to a key it does not
 * read. Keys are compared squashed (upper case, without separators), as Spring's relaxed binding
 * matches {@code layerfold.storage.s3.access-key} to {@code LAYERFOLD_STORAGE_S3_ACCESS_KEY}.
 */
final class ConfigurationKeys {

    /** The records bound from {@code layerfold.*}; each names its prefix in {@code @ConfigurationProperties}. */
    private static final List<Class<?>> PROPERTIES = List.of(StorageProperties.class, BackendConfiguration.S3Properties.class,
            BackendConfiguration.RedisProperties.class, DedupProperties.class, GcProperties.class, PredictorProperties.class,
            RegistryApiProperties.class, AuthProperties.class, UsageProperties.class,
            NotificationProperties.class, ProxyProperties.class, MirrorProperties.class);

    /** A key as documented ({@code layerfold.auth.access[0].users[0]}), and the squashed pattern it stands for. */
    record Key(String name, Pattern squashed, Type type) {

        /** {@code LAYERFOLD_AUTH_ACCESS_0_USERS_0}: how the key is spelled as an environment variable. */
        String environmentName() {
            return name.replace("[0]", "_0").replace("<name>", "NAME").replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
        }
    }

    private final List<Key> keys = new ArrayList<>();

    ConfigurationKeys() {
        for (Class<?> properties : PROPERTIES) {
            ConfigurationProperties annotation = properties.getAnnotation(ConfigurationProperties.class);
            String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
            // A nested record bound on its own (s3, redis) is also a component of nothing: add it as it is.
            addComponents(prefix, properties);
        }
    }

    /** The top-level namespaces ({@code layerfold.storage}, {@code layerfold.auth}, ...). */
    List<String> namespaces() {
        return PROPERTIES.stream().map(type -> type.getAnnotation(ConfigurationProperties.class))
                .map(annotation -> annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix())
                .map(prefix -> prefix.split("\\.")[0] + "." + prefix.split("\\.")[1]).distinct().toList();
    }

    boolean isKnown(String name) {
        String squashed = squash(name);
        return keys.stream().anyMatch(key -> key.squashed().matcher(squashed).matches());
    }

    Key nearest(String name) {
        String squashed = squash(name);
        return keys.stream().min(Comparator.comparingInt(key -> distance(squashed, squash(key.name().replace("<name>", "x")))))
                .orElseThrow();
    }

    private void addComponents(String prefix, Class<?> record) {
        for (RecordComponent component : record.getRecordComponents()) {
            add(prefix + "." + kebab(component.getName()), component.getGenericType());
        }
    }

    private void add(String name, Type type) {
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == List.class) {
            keys.add(key(name, type)); // a comma-separated value
            add(name + "[0]", parameterized.getActualTypeArguments()[0]);
        } else if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == Map.class) {
            add(name + ".<name>", parameterized.getActualTypeArguments()[1]);
        } else if (type instanceof Class<?> type1 && type1.isRecord()) {
            addComponents(name, type1);
        } else {
            keys.add(key(name, type));
        }
    }

    /** Keys bound once (no index, no map key), for checks of their values. */
    List<Key> plainKeys() {
        return keys.stream().filter(key -> !key.name().contains("[0]") && !key.name().contains("<name>")).toList();
    }

    private static Key key(String name, Type type) {
        String pattern = Pattern.quote(squash(name.replace("[0]", "#").replace("<name>", "@")))
                .replace("#", "\\E\\d+\\Q").replace("@", "\\E[A-Z0-9]+\\Q");
        return new Key(name, Pattern.compile(pattern), type);
    }

    static String squash(String name) {
        return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9#@]", "");
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
