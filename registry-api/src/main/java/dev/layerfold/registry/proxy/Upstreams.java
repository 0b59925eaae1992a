package dev.layerfold.registry.proxy;

import dev.layerfold.storage.RepositoryName;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/** The configured upstreams, and which of them a repository is pulled through from. */
@Component
public class Upstreams {

    /** A repository of ours and where it comes from: {@code repository} of {@code upstream}. */
    public record Target(Upstream upstream, String repository) {
    }

    private final List<Upstream> byLongestPrefix;
    private final Optional<Upstream> mirror;

    @Autowired
    Upstreams(ProxyProperties properties, ObjectProvider<MeterRegistry> meters) {
        this(properties, meters.getIfAvailable(), Clock.systemUTC());
    }

    public Upstreams(ProxyProperties properties, MeterRegistry meters, Clock clock) {
        List<ProxyProperties.Upstream> sorted = properties.upstreams().stream()
                .sorted(Comparator.comparingInt((ProxyProperties.Upstream u) -> u.prefix().length()).reversed()).toList();
        this.byLongestPrefix = sorted.stream().map(u -> new Upstream(u, properties, meters, clock)).toList();
        this.mirror = sorted.stream().filter(ProxyProperties.Upstream::registryMirror).findFirst()
                .flatMap(u -> byLongestPrefix.stream().filter(up -> up.name().equals(u.prefix())).findFirst());
    }

    /** Whether any upstream is configured at all. */
    public boolean any() {
        return !byLongestPrefix.isEmpty();
    }

    /** The upstream configured with {@code prefix}, if any. */
    public Optional<Upstream> named(String prefix) {
        return byLongestPrefix.stream().filter(upstream -> upstream.name().equals(prefix)).findFirst();
    }

    /**
     * The upstream a repository is cached from: the one with the longest prefix it lies under
     * ({@code docker.io/library/alpine} is {@code library/alpine} of {@code docker.io}), else the
     * registry-mirror upstream under the repository's own name; empty if none.
     */
    public Optional<Target> route(RepositoryName repository) {
        String name = repository.value();
        for (Upstream upstream : byLongestPrefix) {
            if (name.startsWith(upstream.name() + "/")) {
                return Optional.of(new Target(upstream, dockerHubName(upstream, name.substring(upstream.name().length() + 1))));
            }
        }
        return mirror.map(upstream -> new Target(upstream, dockerHubName(upstream, name)));
    }

    /** Docker Hub keeps its official images under {@code library/}, which clients leave out. */
    private static String dockerHubName(Upstream upstream, String repository) {
        String host = upstream.host();
        boolean dockerHub = host.equals("registry-1.docker.io") || host.equals("index.docker.io") || host.equals("docker.io");
        return dockerHub && !repository.contains("/") ? "library/" + repository : repository;
    }
}
