package dev.layerfold.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;

/**
 * Stops the start, before any backend is touched, on configuration that would otherwise go wrong
 * silently: a {@code layerfold.*} property or {@code LAYERFOLD_*} environment variable the registry
 * does not read (a typo such as {@code LAYERFOLD_STORAGE_BLOBS=s3} would start on local disk), named
 * with the nearest key it does read; a management port that is the registry's (the actuator would be
 * served beside the API to everyone who may pull); and a negative size, duration or count. Values that cannot be
 * read at all (a malformed URL, size or duration) are refused by the binding itself, which names the
 * property; missing files by the settings that name them.
 */
@Component
class ConfigurationCheck implements BeanFactoryPostProcessor, EnvironmentAware {

    /**
     * Environment variables that are not {@code layerfold.*} keys but are read on purpose: the
     * application properties' placeholders for the two ports and the management address.
     */
    static final Set<String> VARIABLES = Set.of("LAYERFOLD_PORT", "LAYERFOLD_MANAGEMENT_PORT", "LAYERFOLD_MANAGEMENT_ADDRESS");

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (environment instanceof ConfigurableEnvironment configurable) {
            List<String> problems = problems(configurable, new ConfigurationKeys());
            if (!problems.isEmpty()) {
                throw new IllegalStateException("The configuration has " + problems.size() + " problem(s); the registry"
                        + " does not start:\n  " + String.join("\n  ", problems));
            }
        }
    }

    static List<String> problems(ConfigurableEnvironment environment, ConfigurationKeys keys) {
        List<String> problems = new ArrayList<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            boolean variables = source.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
            boolean systemProperties = source.getName().equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
            for (String name : enumerable.getPropertyNames()) {
                if (variables ? !name.toUpperCase(Locale.ROOT).startsWith("LAYERFOLD_") || VARIABLES.contains(name)
                        : !name.toLowerCase(Locale.ROOT).startsWith("layerfold.")
                        // JVM system properties carry other tools' settings too (a test harness's
                        // layerfold.jar): only those in the registry's own namespaces are its settings.
                        || systemProperties && keys.namespaces().stream().noneMatch(name.toLowerCase(Locale.ROOT)::startsWith)) {
                    continue;
                }
                if (!keys.isKnown(name)) {
                    ConfigurationKeys.Key nearest = keys.nearest(name);
                    problems.add((variables ? "environment variable " : "property ") + name + " (from " + source.getName()
                            + ") is not a setting of the registry; did you mean " + nearest.name()
                            + (variables ? " (" + nearest.environmentName() + ")" : "") + "?");
                }
            }
        }
        sharedPort(environment).ifPresent(problems::add);
        Binder binder = Binder.get(environment);
        for (ConfigurationKeys.Key key : keys.plainKeys()) {
            negative(binder, key).ifPresent(problems::add);
        }
        return problems;
    }

    static Optional<String> sharedPort(Environment environment) {
        String management = environment.getProperty("management.server.port");
        String server = environment.getProperty("server.port", "8080");
        if (management == null || management.isBlank() || (!management.equals("0") && management.equals(server))) {
            return Optional.of("management.server.port (LAYERFOLD_MANAGEMENT_PORT) is " + management
                    + " and server.port is " + server + ": the management plane (health, metrics, admin actions) needs a"
                    + " port of its own, apart from the registry's; set another, or -1 to serve no management plane");
        }
        return Optional.empty();
    }

    private static Optional<String> negative(Binder binder, ConfigurationKeys.Key key) {
        try {
            boolean negative;
            if (key.type() == Duration.class) {
                negative = binder.bind(key.name(), Duration.class).map(Duration::isNegative).orElse(false);
            } else if (key.type() == DataSize.class) {
                negative = binder.bind(key.name(), DataSize.class).map(DataSize::isNegative).orElse(false);
            } else if (key.type() == int.class || key.type() == long.class || key.type() == double.class
                    || key.type() == Integer.class || key.type() == Long.class || key.type() == Double.class) {
                negative = binder.bind(key.name(), Double.class).map(value -> value < 0).orElse(false);
            } else {
                return Optional.empty();
            }
            return negative ? Optional.of(key.name() + " is negative; it must be 0 or more") : Optional.empty();
        } catch (BindException e) {
            return Optional.of(key.name() + " cannot be read: " + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage()));
        }
    }
}
