package dev.layerfold.registry.proxy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Pull-through caching of other registries ({@code layerfold.proxy.*}): a pull of a repository under an
 * upstream's prefix that the registry does not hold is fetched from that upstream, served and kept.
 *
 * @param upstreams the registries to cache, each for the repositories under its prefix
 * @param connectTimeout how long opening a connection to an upstream may take
 * @param readTimeout how long an upstream may leave a response (headers or body) without a byte: a
 *     stalled upstream costs at most this before the pull fails
 * @param maxRedirects how many redirects one upstream request follows (Docker Hub sends blobs to a CDN)
 */
@ConfigurationProperties("layerfold.proxy")
public record ProxyProperties(
        @DefaultValue List<Upstream> upstreams,
        @DefaultValue("10s") Duration connectTimeout,
        @DefaultValue("30s") Duration readTimeout,
        @DefaultValue("5") int maxRedirects) {

    public ProxyProperties {
        upstreams = upstreams == null ? List.of() : List.copyOf(upstreams);
        if (maxRedirects < 0) {
            throw new IllegalArgumentException("layerfold.proxy.max-redirects must not be negative, was " + maxRedirects);
        }
        if (upstreams.stream().filter(Upstream::registryMirror).count() > 1) {
            throw new IllegalArgumentException("at most one of layerfold.proxy.upstreams may be the registry-mirror");
        }
        long distinct = upstreams.stream().map(Upstream::prefix).distinct().count();
        if (distinct != upstreams.size()) {
            throw new IllegalArgumentException("two of layerfold.proxy.upstreams have the same prefix");
        }
    }

    /**
     * One upstream registry.
     *
     * @param prefix the first component(s) of the repositories it serves ({@code docker.io} serves
     *     {@code docker.io/library/alpine} from the upstream's {@code library/alpine})
     * @param url the upstream's base URL ({@code https://registry-1.docker.io})
     * @param username user to sign in to the upstream as (Basic, or to obtain a bearer token); none: anonymous
     * @param password that user's password or access token; never logged
     * @param tagTtl how long a tag fetched from the upstream is served before it is checked again
     * @param registryMirror also serve every repository under no other prefix, under its own name, as
     *     Docker's and containerd's {@code registry-mirrors} ask for {@code library/alpine}
     */
    public record Upstream(
            String prefix,
            URI url,
            String username,
            String password,
            @DefaultValue("10m") Duration tagTtl,
            @DefaultValue("false") boolean registryMirror) {

        public Upstream {
            if (prefix == null || prefix.isBlank() || prefix.startsWith("/") || prefix.endsWith("/")) {
                throw new IllegalArgumentException("layerfold.proxy.upstreams[].prefix must be a repository name prefix"
                        + " such as docker.io, was " + prefix);
            }
            prefix = prefix.toLowerCase(Locale.ROOT);
            if (url == null || !("https".equals(url.getScheme()) || "http".equals(url.getScheme())) || url.getHost() == null) {
                throw new IllegalArgumentException("layerfold.proxy.upstreams[" + prefix + "].url must be an http(s) URL, was " + url);
            }
            if ((username == null) != (password == null)) {
                throw new IllegalArgumentException("layerfold.proxy.upstreams[" + prefix + "] needs both username and password, or neither");
            }
            if (tagTtl == null || tagTtl.isNegative()) {
                throw new IllegalArgumentException("layerfold.proxy.upstreams[" + prefix + "].tag-ttl must not be negative");
            }
        }

        /** Without the password: records print themselves in logs and error messages. */
        @Override
        public String toString() {
            return "Upstream[prefix=" + prefix + ", url=" + url + ", username=" + username
                    + ", password=" + (password == null ? "none" : "(secret)") + ", tagTtl=" + tagTtl
                    + ", registryMirror=" + registryMirror + "]";
        }
    }
}
