package dev.layerfold.e2e.compose;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The parts of a compose file the compose test reads, as compose would see them with the given
 * variables (SnakeYAML resolves the anchors, aliases and {@code <<} merges). Whatever is missing or
 * shaped otherwise than expected fails with the path of the entry in the file.
 */
final class ComposeFile {

    private final Path file;
    private final Map<?, ?> services;
    private final Map<String, String> variables;

    private ComposeFile(Path file, Map<?, ?> services, Map<String, String> variables) {
        this.file = file;
        this.services = services;
        this.variables = variables;
    }

    /** Reads {@code file}, interpolating with {@code variables} (those of a {@code .env} file or the shell). */
    static ComposeFile read(Path file, Map<String, String> variables) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Object root = new Yaml().load(reader);
            return new ComposeFile(file, asMap(file, asMap(file, root, "the document").get("services"), "services"),
                    variables);
        }
    }

    /** {@code services.<service>.environment}, interpolated; only the mapping form, which the file uses. */
    Map<String, String> environment(String service) {
        String path = "services." + service + ".environment";
        Map<String, String> environment = new LinkedHashMap<>();
        map(service(service), "environment", path).forEach((name, value) -> {
            if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
                throw new IllegalStateException(file + ": " + path + "." + name + " is " + value
                        + ", not a string; a variable without a value would be taken from the host's shell");
            }
            environment.put(name.toString(), ComposeInterpolation.resolve(value.toString(), variables));
        });
        return environment;
    }

    /**
     * {@code services.<service>.volumes} that bind a host file or directory (short form
     * {@code host:container[:mode]}, host paths relative to the compose file): container path to host path.
     */
    Map<String, Path> bindMounts(String service) {
        Map<String, Path> mounts = new LinkedHashMap<>();
        if (service(service).get("volumes") instanceof List<?> volumes) {
            for (Object volume : volumes) {
                String[] parts = ComposeInterpolation.resolve(volume.toString(), variables).split(":");
                if (parts.length >= 2 && (parts[0].startsWith(".") || parts[0].startsWith("/"))) {
                    mounts.put(parts[1], file.toAbsolutePath().getParent().resolve(parts[0]).normalize());
                }
            }
        }
        return mounts;
    }

    /** {@code services.<service>.ports} in the short form ({@code [host-address:]host-port:container-port}), interpolated. */
    List<String> ports(String service) {
        if (!(service(service).get("ports") instanceof List<?> ports)) {
            return List.of();
        }
        return ports.stream().map(port -> ComposeInterpolation.resolve(port.toString(), variables)).toList();
    }

    /** {@code services.<service>.command} in its list form, interpolated. */
    List<String> command(String service) {
        String path = "services." + service + ".command";
        if (!(service(service).get("command") instanceof List<?> command)) {
            throw new IllegalStateException(file + ": " + path + " is missing or not a list");
        }
        return command.stream().map(word -> ComposeInterpolation.resolve(word.toString(), variables)).toList();
    }

    /** {@code services.<service>.depends_on} in its long form: each service to the condition it waits for. */
    Map<String, String> dependencies(String service) {
        String path = "services." + service + ".depends_on";
        Map<String, String> conditions = new LinkedHashMap<>();
        map(service(service), "depends_on", path).forEach((dependency, options) -> conditions.put(
                dependency.toString(), String.valueOf(asMap(file, options, path + "." + dependency).get("condition"))));
        return conditions;
    }

    boolean hasHealthcheck(String service) {
        return service(service).get("healthcheck") instanceof Map<?, ?>;
    }

    private Map<?, ?> service(String name) {
        return map(services, name, "services." + name);
    }

    private Map<?, ?> map(Map<?, ?> parent, String key, String path) {
        return asMap(file, parent.get(key), path);
    }

    private static Map<?, ?> asMap(Path file, Object value, String path) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalStateException(file + ": " + path + " is missing or not a mapping");
        }
        return map;
    }
}
