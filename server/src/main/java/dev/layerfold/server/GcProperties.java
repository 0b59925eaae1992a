package dev.layerfold.server;

import dev.layerfold.registry.manifest.RetentionPolicy;
import dev.layerfold.storage.RepositoryPattern;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code layerfold.gc.*}: the garbage collector. Every property also comes from the environment,
 * e.g. {@code LAYERFOLD_GC_GRACE}.
 *
 * @param interval            how often a collection runs (on S3 + Redis by one process at a time); 0 runs none
 *                            on a schedule (the endpoint still runs one)
 * @param grace               blobs are kept this long after their last upload, mount or reference: longer
 *                            than any push takes between its first blob and its manifest
 * @param deletesPerSecond    at most this many deletes a second, so clients do not notice the collector
 * @param unreferencedFileAge deduplicated files no layer references are forgotten once stored this long
 * @param packLiveShare       a pack is rewritten once the share of its bytes still live falls below this
 * @param packGrace           a rewritten pack is deleted this long after its files moved (longer than a dedup
 *                            worker's 30-minute limit and any rebuild that looked its files up before)
 * @param rewriteBytesPerSecond pack bytes read per second for rewriting, at most
 * @param sweepObjectsPerRun  objects of the bucket each run lists (from where the last stopped) for what no
 *                            index knows; those older than the grace are collected like any candidate
 * @param retention           retention rules, the first whose {@code repositories} names a repository
 *                            governing it; applied before each scheduled collection
 */
@ConfigurationProperties("layerfold.gc")
public record GcProperties(
        @DefaultValue("1h") Duration interval,
        @DefaultValue("24h") Duration grace,
        @DefaultValue("50") double deletesPerSecond,
        @DefaultValue("1h") Duration unreferencedFileAge,
        @DefaultValue("0.5") double packLiveShare,
        @DefaultValue("1h") Duration packGrace,
        @DefaultValue("32MB") DataSize rewriteBytesPerSecond,
        @DefaultValue("10000") long sweepObjectsPerRun,
        List<Rule> retention) {

    public GcProperties {
        retention = retention == null ? List.of() : List.copyOf(retention);
    }

    /**
     * {@code layerfold.gc.retention[i].*}: see {@link RetentionPolicy}.
     *
     * @param repositories  {@code team-a/app}, {@code team-a/*} or {@code *}
     * @param keepLastTags  keep the tags of the N manifests pushed last
     * @param keepTags      keep tags matching this regular expression (whole tag)
     * @param untaggedAfter remove untagged manifests this long after their push
     */
    public record Rule(String repositories, Integer keepLastTags, String keepTags, Duration untaggedAfter) {

        RetentionPolicy policy() {
            if (repositories == null || repositories.isBlank()) {
                throw new IllegalStateException("every layerfold.gc.retention rule needs repositories (e.g. team-a/*)");
            }
            return new RetentionPolicy(new RepositoryPattern(repositories),
                    keepLastTags == null ? OptionalInt.empty() : OptionalInt.of(keepLastTags),
                    Optional.ofNullable(keepTags).map(Pattern::compile), Optional.ofNullable(untaggedAfter));
        }
    }

    List<RetentionPolicy> policies() {
        return retention.stream().map(Rule::policy).toList();
    }
}
