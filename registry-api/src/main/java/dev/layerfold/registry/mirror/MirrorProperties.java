package dev.layerfold.registry.mirror;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Scheduled mirroring ({@code layerfold.mirror.*}): rules that keep chosen tags of an upstream's
 * repositories copied here, whether or not a client asked for them.
 *
 * @param rules what to mirror, each from one of the {@code layerfold.proxy.upstreams}
 */
@ConfigurationProperties("layerfold.mirror")
public record MirrorProperties(@DefaultValue List<Rule> rules) {

    public MirrorProperties {
        rules = rules == null ? List.of() : List.copyOf(rules);
        long distinct = rules.stream().map(Rule::name).distinct().count();
        if (distinct != rules.size()) {
            throw new IllegalArgumentException("two of layerfold.mirror.rules mirror the same repository of the same upstream");
        }
    }

    /**
     * One repository of one upstream, and which of its tags to keep copied.
     *
     * @param upstream the prefix of the upstream ({@code layerfold.proxy.upstreams[].prefix}) to mirror from
     * @param repository the repository at the upstream ({@code library/alpine}), or a glob over the upstream's
     *     repositories ({@code library/*}: {@code *} and {@code ?} within one path component, {@code **} across
     *     them), which each run reads from the upstream's catalog; each is kept here under the upstream's prefix,
     *     where the pull-through serves it
     * @param tags tag patterns: globs ({@code 3.*}, {@code *-alpine}), or regular expressions after
     *     {@code regex:}; a tag is selected if any pattern matches it whole. Empty: every tag
     * @param semver optionally, a version range the selected tags must also lie in ({@code >=1.2 <2}):
     *     space-separated comparisons ({@code >}, {@code >=}, {@code <}, {@code <=}, {@code =}), all of which
     *     must hold; a tag that is no version ({@code latest}) is then left out
     * @param platforms for a tag naming an index, the platforms whose manifests and blobs are fetched
     *     ({@code linux/amd64}, {@code linux/arm64/v8}); empty: every platform
     * @param interval how long after the end of one run the next one starts
     */
    public record Rule(String upstream, String repository, @DefaultValue List<String> tags, String semver,
                       @DefaultValue List<String> platforms, @DefaultValue("6h") Duration interval) {

        public Rule {
            if (upstream == null || upstream.isBlank()) {
                throw new IllegalArgumentException("layerfold.mirror.rules[].upstream must name an upstream's prefix");
            }
            upstream = upstream.toLowerCase(Locale.ROOT);
            if (repository == null || repository.isBlank() || repository.startsWith("/") || repository.endsWith("/")) {
                throw new IllegalArgumentException("layerfold.mirror.rules[" + upstream + "].repository must be a"
                        + " repository of the upstream, such as library/alpine, or a glob over them (library/*), was " + repository);
            }
            tags = tags == null ? List.of() : List.copyOf(tags);
            platforms = platforms == null ? List.of() : List.copyOf(platforms);
            if (interval == null || interval.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("layerfold.mirror.rules[" + upstream + "/" + repository
                        + "].interval must be at least 1s");
            }
            TagSelection.of(tags, semver); // refuses a pattern or range it cannot read, at startup
        }

        /** Whether {@link #repository} selects repositories from the upstream's catalog rather than naming one. */
        public boolean selectsRepositories() {
            return RepositoryGlob.isGlob(repository);
        }

        /** How the rule is named in metrics, logs and its lease: {@code <upstream>/<repository>}. */
        public String name() {
            return upstream + "/" + repository;
        }
    }
}
